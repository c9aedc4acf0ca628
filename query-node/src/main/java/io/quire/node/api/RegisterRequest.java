package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.journal.model.SchemaReference;
import java.util.List;

/**
 * The body of {@code POST /subjects/{s}/versions} and {@code POST /subjects/{s}}. Fields Quire does
 * not act on yet (metadata, ruleSet) are accepted and ignored, as older Confluent servers do.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RegisterRequest(String schema, String schemaType, List<SchemaReference> references, Integer id,
                              Integer version) {

    public List<SchemaReference> referencesOrEmpty() {
        return references == null ? List.of() : references;
    }
}
