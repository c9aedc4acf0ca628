package io.quire.journal.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.codec.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FingerprintTest {

    static byte[] sha256(String s) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDigestIsItsBytesAndReadsBackFromItsHex() throws Exception {
        byte[] digest = sha256("\"long\"");
        Fingerprint fp = Fingerprint.ofDigest(digest);
        assertTrue(fp.isDigest());
        assertEquals(HexFormat.of().formatHex(digest), fp.text());
        assertEquals(fp, Fingerprint.parse(fp.text()));
        assertEquals(fp.hashCode(), Fingerprint.parse(fp.text()).hashCode());
        assertEquals(33, fp.keyLength());
        byte[] key = new byte[35];
        fp.copyKey(key, 2);
        assertEquals(1, key[2]);
        assertEquals(digest[31], key[34]);
    }

    @Test
    void anyOtherTextIsKeptAsTextAndNeverEqualsADigest() throws Exception {
        String hex = HexFormat.of().formatHex(sha256("x"));
        Fingerprint upper = Fingerprint.parse(hex.toUpperCase());
        assertFalse(upper.isDigest(), "upper-case hex is not what the edge writes: kept as text");
        assertEquals(hex.toUpperCase(), upper.text());
        assertNotEquals(Fingerprint.parse(hex), upper);
        Fingerprint odd = Fingerprint.parse("fp-\"long\" é");
        assertEquals("fp-\"long\" é", odd.text());
        assertEquals(1 + "fp-\"long\" é".getBytes(StandardCharsets.UTF_8).length, odd.keyLength());
        assertFalse(Fingerprint.parse(hex.substring(0, 63) + "g").isDigest());
        assertEquals("", Fingerprint.parse("").text());
        assertThrows(IllegalArgumentException.class, () -> Fingerprint.ofDigest(new byte[31]));
    }

    @Test
    void aSpanOfAParsersBufferReadsAsItsText() throws Exception {
        String hex = HexFormat.of().formatHex(sha256("z"));
        assertEquals(Fingerprint.parse(hex), Fingerprint.parse(("x\"" + hex + "\"y").toCharArray(), 2, 64));
        assertTrue(Fingerprint.parse(("x\"" + hex + "\"y").toCharArray(), 2, 64).isDigest());
        Fingerprint text = Fingerprint.parse("ab fp-é cd".toCharArray(), 3, 4);
        assertEquals(Fingerprint.parse("fp-é"), text);
        assertEquals("fp-é", text.text());
    }

    @Test
    void theWireFormIsTheText() throws Exception {
        Fingerprint fp = Fingerprint.ofDigest(sha256("y"));
        String json = Json.MAPPER.writeValueAsString(fp);
        assertEquals("\"" + fp.text() + "\"", json);
        assertEquals(fp, Json.MAPPER.readValue(json, Fingerprint.class));
        assertEquals(Fingerprint.parse("fp-1"), Json.MAPPER.readValue("\"fp-1\"", Fingerprint.class));
    }
}
