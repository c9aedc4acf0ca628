package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

    /**
     * {@link #of}, or without the search index's keys ({@code Q}, {@code q}) when
     * {@code withoutIndex}: a view compared with one written before the index existed.
     */
    public static String of(KvReader kv, boolean withoutIndex) {
        MessageDigest sha = sha256();
        ByteBuffer len = ByteBuffer.allocate(8);
        kv.scan(new byte[0], (k, v) -> {
            if (withoutIndex && k.length > 0 && (k[0] == 'Q' || k[0] == 'q')) {
                return true;
            }
            sha.update(len.clear().putInt(k.length).putInt(v.length).array());
            sha.update(k);
            sha.update(v);
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
        return java.util.Arrays.equals(k, Keys.POSITION) || java.util.Arrays.equals(k, Keys.FOLLOW)
                || java.util.Arrays.equals(k, Keys.REGION) || java.util.Arrays.equals(k, Keys.LAYOUT);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
