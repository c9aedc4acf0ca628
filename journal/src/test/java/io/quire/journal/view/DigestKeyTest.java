package io.quire.journal.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quire.journal.model.Context;
import io.quire.journal.model.Fingerprint;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Fingerprint and content-hash keys: a lower-case hex SHA-256 as its bytes, any other text as itself. */
class DigestKeyTest {

    static final String HEX = "00408cc0431fbc2906f8eb291c8c57825b0018794a6238fee84a1279f4871a02";

    @Test
    void aHexDigestIsKeptAsItsThirtyTwoBytes() {
        byte[] k = Keys.fingerprint(Context.DEFAULT, Fingerprint.parse(HEX));
        assertEquals(34, k.length);
        assertEquals('F', k[0]);
        assertEquals(1, k[1]);
        assertArrayEquals(HexFormat.of().parseHex(HEX), Arrays.copyOfRange(k, 2, 34));
        byte[] inContext = Keys.contentHash(new Context(".ctx"), HEX);
        assertArrayEquals(concat("P:.ctx:".getBytes(StandardCharsets.UTF_8), new byte[] {1}, HexFormat.of().parseHex(HEX)),
                inContext);
    }

    @Test
    void otherTextIsKeptAsItselfBehindAZero() {
        for (String text : List.of("fp-\"int\"", HEX.toUpperCase(), HEX.substring(1), HEX + "0", "g" + HEX.substring(1), "",
                HEX.substring(0, 63) + "G", HEX.substring(0, 63) + "\u00e9", HEX.substring(0, 63) + "\u0101",
                HEX.substring(0, 31) + " " + HEX.substring(32))) {
            assertArrayEquals(concat(new byte[] {'F', 0}, text.getBytes(StandardCharsets.UTF_8)),
                    Keys.fingerprint(Context.DEFAULT, Fingerprint.parse(text)), text);
        }
    }

    @Test
    void differentDigestsOrContextsNeverShareAKey() {
        Random r = new Random(5);
        List<String> digests = new ArrayList<>(List.of(HEX, HEX.toUpperCase(), "x", "fp-1"));
        for (int i = 0; i < 200; i++) {
            byte[] b = new byte[32];
            r.nextBytes(b);
            digests.add(HexFormat.of().formatHex(b));
            digests.add(new String(b, 0, 31, StandardCharsets.ISO_8859_1)); // text as long as a digest's bytes
        }
        List<Context> contexts = List.of(Context.DEFAULT, new Context(".a"), new Context(".ab"));
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (Context c : contexts) {
            for (String d : digests) {
                keys.add(HexFormat.of().formatHex(Keys.fingerprint(c, Fingerprint.parse(d))));
            }
        }
        assertEquals(contexts.size() * new java.util.HashSet<>(digests).size(), keys.size());
    }

    @Test
    void theViewFindsContentByEitherForm() {
        InMemoryKv kv = new InMemoryKv();
        Changes c = new Changes();
        ViewWriter out = new ViewWriter(c);
        StoredSchema s = new StoredSchema("\"int\"", io.quire.journal.model.SchemaType.AVRO, List.of());
        out.schema(Context.DEFAULT, io.quire.journal.model.SchemaId.of(7), s, Fingerprint.parse(HEX));
        out.schema(new Context(".b"), io.quire.journal.model.SchemaId.of(8), s, Fingerprint.parse("fp-legacy"));
        kv.apply(c);
        RegistryView view = new RegistryView(kv);
        assertEquals(7, view.ids().idForFingerprint(Context.DEFAULT, Fingerprint.parse(HEX)).orElseThrow().value());
        assertEquals(8, view.ids().idForFingerprint(new Context(".b"), Fingerprint.parse("fp-legacy")).orElseThrow().value());
        assertFalse(view.ids().idForFingerprint(Context.DEFAULT, Fingerprint.parse(HEX.toUpperCase())).isPresent());
        assertFalse(view.ids().idForFingerprint(Context.DEFAULT, Fingerprint.parse("fp-legacy")).isPresent());
        String hash = ContentHash.of("\"int\"", List.of());
        assertEquals(7, view.ids().idForContentHash(Context.DEFAULT, hash).orElseThrow().value());
        assertEquals(8, view.ids().idForContentHash(new Context(".b"), hash).orElseThrow().value());
    }

    static byte[] concat(byte[]... parts) {
        return Keys.concat(parts);
    }
}
