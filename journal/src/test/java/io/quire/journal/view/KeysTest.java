package io.quire.journal.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The subject keys built in one array are byte for byte the keys the layout describes (kind, UTF-8 name, the rest). */
class KeysTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] join(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(1024);
        for (byte[] p : parts) {
            b.put(p);
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private static byte[] one(char c) {
        return new byte[] {(byte) c};
    }

    private static byte[] i32(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    private static byte[] i64(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    /** Names of ASCII, Latin-1, other BMP characters, pairs of surrogates and lone surrogates. */
    private static String name(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(6)) {
                case 0, 1, 2 -> b.append((char) (0x20 + r.nextInt(0x5f)));
                case 3 -> b.append((char) (0x80 + r.nextInt(0x80)));
                case 4 -> b.appendCodePoint(r.nextBoolean() ? 0x4e00 + r.nextInt(100) : 0x1f600 + r.nextInt(50));
                default -> b.append((char) (0xd800 + r.nextInt(0x800))); // a lone surrogate: UTF-8 writes '?'
            }
        }
        return b.toString();
    }

    @Test
    void subjectKeysAreTheLayoutsBytes() {
        Random r = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            String s = name(r);
            Subject subject = Subject.of(s);
            int v = r.nextBoolean() ? r.nextInt(100) : r.nextInt();
            long id = r.nextBoolean() ? r.nextInt(1000) : r.nextLong();
            assertArrayEquals(join(one('S'), utf8(s)), Keys.subject(subject), s);
            assertArrayEquals(join(one('S'), utf8(s)), Keys.subjectPrefix(s), s);
            assertArrayEquals(join(one('V'), utf8(s), new byte[] {0}), Keys.versions(subject), s);
            assertArrayEquals(join(one('V'), utf8(s), new byte[] {0}, i32(v)), Keys.version(subject, Version.of(v)), s);
            assertArrayEquals(join(one('R'), i64(id), utf8(s), new byte[] {0}), Keys.usages(SchemaId.of(id), subject), s);
            assertArrayEquals(join(one('R'), i64(id), utf8(s), new byte[] {0}, i32(v)),
                    Keys.usage(SchemaId.of(id), subject, Version.of(v)), s);
            assertArrayEquals(join(one('C'), utf8(s)), Keys.subjectConfig(subject), s);
            assertArrayEquals(join(one('N'), utf8(s)), Keys.subjectNormalize(subject), s);
            assertArrayEquals(join(one('X'), utf8(s)), Keys.subjectFields(subject), s);
            assertArrayEquals(join(one('D'), utf8(s)), Keys.subjectMode(subject), s);
        }
    }
}
