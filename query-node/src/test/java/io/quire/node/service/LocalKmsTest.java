package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.Kek;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The local KMS: RFC 5869's HKDF, and AES-GCM wrapping that only its own secret opens. */
class LocalKmsTest {

    static final Kek KEK = new Kek("k", LocalKms.TYPE, "mykey", null, null, true, 0, false);

    @Test
    void hkdfIsRfc5869() {
        byte[] ikm = new byte[22];
        Arrays.fill(ikm, (byte) 0x0b);
        assertEquals("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
                HexFormat.of().formatHex(LocalKms.hkdfSha256(ikm, 42)), "RFC 5869 test case 3 (no salt, no info)");
    }

    @Test
    void aWrappedKeyOpensWithTheSameSecretOnly() {
        LocalKms kms = new LocalKms("s3cret");
        byte[] material = "sixteen byte key".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] wrapped = kms.wrap(KEK, material);
        assertEquals(12 + material.length + 16, wrapped.length, "nonce, sealed key, tag");
        assertFalse(Arrays.equals(wrapped, kms.wrap(KEK, material)), "a fresh nonce each time");
        assertArrayEquals(material, kms.unwrap(KEK, wrapped));
        assertArrayEquals(material, new LocalKms("s3cret").unwrap(KEK, wrapped), "another node with the secret");
        assertThrows(IllegalArgumentException.class, () -> new LocalKms("other").unwrap(KEK, wrapped));
        wrapped[20] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> kms.unwrap(KEK, wrapped), "tampered");
        assertTrue(kms.supports("local-kms"));
        assertFalse(kms.supports("aws-kms"));
    }
}
