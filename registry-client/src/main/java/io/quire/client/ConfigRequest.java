package io.quire.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.quire.journal.model.ConfigFields;

/**
 * The body of {@code PUT /config} and {@code PUT /config/{s}} with Confluent's names: the level as
 * {@code compatibility}, {@code normalize}, and the other fields flat beside them. A null part is
 * not sent, so not changed.
 */
public record ConfigRequest(String compatibility, Boolean normalize, @JsonUnwrapped ConfigFields fields) {

    public static ConfigRequest level(String compatibility) {
        return new ConfigRequest(compatibility, null, null);
    }

    /** Whether the request sets nothing (Confluent refuses an empty update with 42203). */
    @JsonIgnore
    public boolean isEmpty() {
        return compatibility == null && normalize == null && (fields == null || fields.isNone());
    }
}
