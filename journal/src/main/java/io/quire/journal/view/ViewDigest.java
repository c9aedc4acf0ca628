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
        MessageDigest sha = sha256();
        ByteBuffer len = ByteBuffer.allocate(8);
        kv.scan(new byte[0], (k, v) -> {
            sha.update(len.clear().putInt(k.length).putInt(v.length).array());
            sha.update(k);
            sha.update(v);
            return true;
        });
        return HexFormat.of().formatHex(sha.digest());
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
