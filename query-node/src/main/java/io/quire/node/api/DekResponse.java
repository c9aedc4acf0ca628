package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Dek;
import io.quire.journal.model.DekAlgorithm;

/**
 * A DEK as Confluent's registry answers it. {@code keyMaterial}, the key in clear (base64), is
 * only there for a DEK of a shared KEK whose KMS this node reaches: that is what sharing a KEK
 * with the registry means, and why only those clients need no KMS of their own.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DekResponse(String kekName, String subject, int version, DekAlgorithm algorithm,
                          String encryptedKeyMaterial, String keyMaterial, long ts, boolean deleted) {

    public static DekResponse of(Dek d, String keyMaterial) {
        return new DekResponse(d.kekName(), d.subject(), d.version(), d.algorithm(), d.encryptedKeyMaterial(),
                keyMaterial, d.ts(), d.deleted());
    }
}
