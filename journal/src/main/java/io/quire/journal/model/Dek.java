package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A data encryption key: its material only as the client's KMS wrapped it
 * ({@code encryptedKeyMaterial}, base64), under a KEK, for a subject, in versions (a rotation adds
 * one). {@code ts} is the journal time it was made or last changed; clients read it to expire keys.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Dek(String kekName, String subject, int version, DekAlgorithm algorithm, String encryptedKeyMaterial,
                  long ts, boolean deleted) {

    public Dek withDeleted(boolean nowDeleted, long at) {
        return new Dek(kekName, subject, version, algorithm, encryptedKeyMaterial, at, nowDeleted);
    }
}
