package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/** The bodies of the DEK registry's writes, with Confluent's field names. */
public final class KeyRequests {

    private KeyRequests() {
    }

    /** {@code POST /dek-registry/v1/keks}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CreateKek(String name, String kmsType, String kmsKeyId, Map<String, String> kmsProps, String doc,
                            Boolean shared) {
    }

    /** {@code PUT /dek-registry/v1/keks/{name}}: what is absent is kept. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record UpdateKek(Map<String, String> kmsProps, String doc, Boolean shared) {
    }

    /** {@code POST /dek-registry/v1/keks/{name}/deks[/{subject}]}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CreateDek(String subject, Integer version, String algorithm, String encryptedKeyMaterial,
                            Boolean deleted) {
    }
}
