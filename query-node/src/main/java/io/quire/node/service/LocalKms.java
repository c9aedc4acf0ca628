package io.quire.node.service;

import io.quire.journal.model.Kek;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code local-kms} KMS type, as Confluent's clients implement it (their LocalKmsDriver): the
 * key is HKDF-SHA256 of a secret (no salt, no info) to 16 bytes, and a wrapped DEK is a 12-byte
 * nonce, then AES-128-GCM of the material with a 16-byte tag. A client holding the same secret
 * opens what this node wraps, and the other way round. For tests and single-site setups: the
 * secret is only as safe as the file it is read from.
 */
public final class LocalKms implements Kms {

    public static final String TYPE = "local-kms";

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    public LocalKms(String secret) {
        this.key = new SecretKeySpec(hkdfSha256(secret.getBytes(StandardCharsets.UTF_8), 16), "AES");
    }

    @Override
    public boolean supports(String kmsType) {
        return TYPE.equals(kmsType);
    }

    @Override
    public byte[] wrap(Kek kek, byte[] material) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            byte[] sealed = c.doFinal(material);
            byte[] out = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    @Override
    public byte[] unwrap(Kek kek, byte[] wrapped) {
        if (wrapped.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalArgumentException("too short to be a wrapped key");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, wrapped, 0, NONCE_BYTES));
            return c.doFinal(wrapped, NONCE_BYTES, wrapped.length - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException("the key does not open it");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** RFC 5869 with an all-zero salt and empty info. */
    static byte[] hkdfSha256(byte[] ikm, int length) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(new byte[32], "HmacSHA256"));
            byte[] prk = mac.doFinal(ikm);
            mac.init(new SecretKeySpec(prk, "HmacSHA256"));
            byte[] out = new byte[length];
            byte[] t = new byte[0];
            int done = 0;
            for (int i = 1; done < length; i++) {
                mac.update(t);
                mac.update((byte) i);
                t = mac.doFinal();
                int n = Math.min(t.length, length - done);
                System.arraycopy(t, 0, out, done, n);
                done += n;
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /** The KMS this node reaches for shared KEKs: local-kms with the secret in {@code file}, or none. */
    public static Kms fromFile(String file) {
        if (file == null || file.isEmpty()) {
            return Kms.NONE;
        }
        try {
            String secret = Files.readString(Path.of(file)).strip();
            if (secret.isEmpty()) {
                throw new IllegalArgumentException("--kms-local-secret-file " + file + " is empty");
            }
            return new LocalKms(secret);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read --kms-local-secret-file " + file + ": " + e.getMessage());
        }
    }
}
