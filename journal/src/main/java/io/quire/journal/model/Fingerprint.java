package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A content's identity: the SHA-256 the edge computes over a schema's type, canonical text and
 * references (and its data contract, if any), kept as its 32 bytes from the digest to the view's
 * key. On the wire (a journal record) it is the digest in lower-case hex. A record may hold any
 * other text (the journal never refuses what an older or foreign writer put there): that text is
 * kept as it is and stays apart from every digest, in the key too.
 *
 * <p>The key form ({@link #keyLength}, {@link #copyKey}) is a 1 and the digest's bytes, or a 0 and
 * the text's UTF-8, as the view's layout 3 stores it.
 */
public final class Fingerprint {

    private static final int DIGEST_BYTES = 32;
    private static final HexFormat HEX = HexFormat.of();

    /** 1 and the digest, or 0 and the text's UTF-8. */
    private final byte[] key;
    /** Computed on first use (0: not yet): a replay decodes every record's fingerprint and never hashes it. */
    private int hash;

    private Fingerprint(byte[] key) {
        this.key = key;
    }

    /** The fingerprint of a SHA-256 digest's 32 bytes. */
    public static Fingerprint ofDigest(byte[] sha256) {
        if (sha256.length != DIGEST_BYTES) {
            throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, not " + sha256.length);
        }
        byte[] key = new byte[1 + DIGEST_BYTES];
        key[0] = 1;
        System.arraycopy(sha256, 0, key, 1, DIGEST_BYTES);
        return new Fingerprint(key);
    }

    /** A fingerprint as a record spells it: 64 lower-case hex digits are a digest, any other text is kept as text. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Fingerprint parse(String text) {
        return parse(text.toCharArray(), 0, text.length());
    }

    /**
     * {@link #parse} of the text at {@code chars[offset, offset + length)}: a JSON parser's own buffer,
     * read without a {@code String} of it first when it holds a digest.
     */
    public static Fingerprint parse(char[] chars, int offset, int length) {
        if (length == 2 * DIGEST_BYTES) {
            byte[] key = digestKey(chars, offset);
            if (key != null) {
                return new Fingerprint(key);
            }
        }
        byte[] utf8 = new String(chars, offset, length).getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[1 + utf8.length];
        System.arraycopy(utf8, 0, key, 1, utf8.length);
        return new Fingerprint(key);
    }

    /** The key form of the 64 hex digits at {@code chars[offset…]}, or null when one is not a lower-case hex digit. */
    private static byte[] digestKey(char[] chars, int offset) {
        byte[] key = new byte[1 + DIGEST_BYTES];
        key[0] = 1;
        int invalid = 0;
        for (int i = offset, at = 1; at <= DIGEST_BYTES; i += 2) {
            int hi = hexDigit(chars[i]);
            int lo = hexDigit(chars[i + 1]);
            invalid |= hi | lo; // negative once any character is not a lower-case hex digit
            key[at++] = (byte) (hi << 4 | lo);
        }
        return invalid >= 0 ? key : null;
    }

    private static int hexDigit(char c) {
        return c < HEX_DIGIT.length ? HEX_DIGIT[c] : -1;
    }

    /** A lower-case hex digit's value by its character, -1 for any other ASCII one (a table: ~5x a test per character). */
    private static final byte[] HEX_DIGIT = new byte[128];

    static {
        Arrays.fill(HEX_DIGIT, (byte) -1);
        for (int c = '0'; c <= '9'; c++) {
            HEX_DIGIT[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            HEX_DIGIT[c] = (byte) (c - 'a' + 10);
        }
    }

    /** Whether this is a digest (else a text a record carried). */
    public boolean isDigest() {
        return key[0] == 1;
    }

    /** The wire form: the digest in lower-case hex, or the text as given. */
    @JsonValue
    public String text() {
        return isDigest() ? HEX.formatHex(key, 1, key.length)
                : new String(key, 1, key.length - 1, StandardCharsets.UTF_8);
    }

    /** The length of the key form. */
    public int keyLength() {
        return key.length;
    }

    /** Copies the key form into {@code dst} at {@code at}. */
    public void copyKey(byte[] dst, int at) {
        System.arraycopy(key, 0, dst, at, key.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fingerprint f && Arrays.equals(key, f.key);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(key);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return text();
    }
}
