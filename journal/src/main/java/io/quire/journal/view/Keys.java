package io.quire.journal.view;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The key layout of the view. One byte of prefix per kind of entry; numbers big-endian so that
 * keys sort numerically; a subject ends with a 0x00 byte wherever something follows it (subjects
 * cannot contain control characters).
 *
 * <pre>
 * G pos | G next | G config | G mode    position, id watermark, global level and mode
 * I id                                  prepared body of GET /schemas/ids/{id}
 * F fingerprint                         id of that content
 * S subject                             subject record
 * V subject 0 version                   version record
 * R id subject 0 version                which subject versions use an id
 * C subject | D subject | N subject     subject level, mode and normalize flag
 * O offset                              outcome of the command at that offset
 * A offset                              audit entry of the command at that offset
 * B subject 0 version id                schema id whose references name that subject version
 * </pre>
 */
public final class Keys {

    public static final byte[] POSITION = ascii("Gpos");
    public static final byte[] NEXT_ID = ascii("Gnext");
    public static final byte[] GLOBAL_CONFIG = ascii("Gconfig");
    public static final byte[] GLOBAL_MODE = ascii("Gmode");
    public static final byte[] GLOBAL_NORMALIZE = ascii("Gnormalize");
    public static final byte[] SUBJECTS = {'S'};
    public static final byte[] AUDIT = {'A'};

    private Keys() {
    }

    public static byte[] schema(long id) {
        return ByteBuffer.allocate(9).put((byte) 'I').putLong(id).array();
    }

    public static byte[] fingerprint(String hex) {
        return concat(new byte[] {'F'}, ascii(hex));
    }

    public static byte[] subject(String subject) {
        return concat(SUBJECTS, utf8(subject));
    }

    public static String subjectOf(byte[] subjectKey) {
        return new String(subjectKey, 1, subjectKey.length - 1, StandardCharsets.UTF_8);
    }

    public static byte[] versions(String subject) {
        return concat(new byte[] {'V'}, utf8(subject), new byte[] {0});
    }

    public static byte[] version(String subject, int version) {
        return concat(versions(subject), intBytes(version));
    }

    /** The version number at the end of a {@link #version} key. */
    public static int versionOf(byte[] versionKey) {
        return ByteBuffer.wrap(versionKey, versionKey.length - 4, 4).getInt();
    }

    public static byte[] usages(long id) {
        return ByteBuffer.allocate(9).put((byte) 'R').putLong(id).array();
    }

    public static byte[] usages(long id, String subject) {
        return concat(usages(id), utf8(subject), new byte[] {0});
    }

    public static byte[] usage(long id, String subject, int version) {
        return concat(usages(id, subject), intBytes(version));
    }

    /** The subject inside a {@link #usage} key. */
    public static String usageSubject(byte[] usageKey) {
        return new String(usageKey, 9, usageKey.length - 9 - 5, StandardCharsets.UTF_8);
    }

    public static byte[] referencedBy(String subject, int version) {
        return concat(new byte[] {'B'}, utf8(subject), new byte[] {0}, intBytes(version));
    }

    public static byte[] referencedBy(String subject, int version, long id) {
        return concat(referencedBy(subject, version), ByteBuffer.allocate(8).putLong(id).array());
    }

    /** The id at the end of a {@link #referencedBy(String, int, long)} key. */
    public static long referencingId(byte[] key) {
        return ByteBuffer.wrap(key, key.length - 8, 8).getLong();
    }

    public static byte[] subjectConfig(String subject) {
        return concat(new byte[] {'C'}, utf8(subject));
    }

    public static byte[] subjectNormalize(String subject) {
        return concat(new byte[] {'N'}, utf8(subject));
    }

    public static byte[] subjectMode(String subject) {
        return concat(new byte[] {'D'}, utf8(subject));
    }

    public static byte[] outcome(long offset) {
        return ByteBuffer.allocate(9).put((byte) 'O').putLong(offset).array();
    }

    public static byte[] audit(long offset) {
        return ByteBuffer.allocate(9).put((byte) 'A').putLong(offset).array();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
