package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A digest of the whole view, every key and value in key order: two stores with the same digest
 * hold the same bytes. Expensive (a full scan); for verification, never on a hot path.
 */
public final class ViewDigest {

    private ViewDigest() {
    }

    public static String of(KvReader kv) {
        return of(kv, false);
    }

    /** The view's layout in the builds before the search index (ADR 0016). */
    static final int LAYOUT_BEFORE_SEARCH = 3;

    /**
     * {@link #of}, or when {@code withoutIndex} the digest of the view as a build before the search
     * index wrote it: without the index's keys ({@code Q}, {@code q}), and with the layout it had
     * then ({@link #LAYOUT_BEFORE_SEARCH}; the index's own packing moved the number on). A change
     * of any other key still shows.
     */
    public static String of(KvReader kv, boolean withoutIndex) {
        MessageDigest sha = sha256();
        ByteBuffer len = ByteBuffer.allocate(8);
        kv.scan(new byte[0], (k, v) -> {
            if (withoutIndex && k.length > 0 && (k[0] == 'Q' || k[0] == 'q')) {
                return true;
            }
            byte[] value = withoutIndex && Arrays.equals(k, Keys.LAYOUT)
                    ? ByteBuffer.allocate(4).putInt(LAYOUT_BEFORE_SEARCH).array() : v;
            sha.update(len.clear().putInt(k.length).putInt(value.length).array());
            sha.update(k);
            sha.update(value);
            return true;
        });
        return HexFormat.of().formatHex(sha.digest());
    }

    /**
     * A digest of the registry's content as clients read it, leaving out what depends on journal
     * offsets, so that two regions applying copies of one journal (a mirror keeps records, not their
     * offsets) can be compared: the position, the audit trail (keyed by offset), subject records
     * (they carry the offset of their last change), associations (GUIDs drawn from offsets),
     * exporters (their recorded offsets) and the follow and region markers.
     */
    public static String content(KvReader kv) {
        MessageDigest sha = sha256();
        ByteBuffer len = ByteBuffer.allocate(8);
        kv.scan(new byte[0], (k, v) -> {
            if (k.length == 0 || OFFSET_BOUND.indexOf(k[0]) >= 0 || k[0] == 'G' && offsetBoundGlobal(k)) {
                return true;
            }
            sha.update(len.clear().putInt(k.length).putInt(v.length).array());
            sha.update(k);
            sha.update(v);
            return true;
        });
        return HexFormat.of().formatHex(sha.digest());
    }

    private static final String OFFSET_BOUND = "ASKLMZ";

    private static boolean offsetBoundGlobal(byte[] k) {
        return Arrays.equals(k, Keys.POSITION) || Arrays.equals(k, Keys.FOLLOW)
                || Arrays.equals(k, Keys.REGION) || Arrays.equals(k, Keys.LAYOUT);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
