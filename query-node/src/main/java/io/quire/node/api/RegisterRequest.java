package io.quire.node.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import java.util.List;

/**
 * The body of {@code POST /subjects/{s}/versions} and {@code POST /subjects/{s}}, with the data
 * contract's {@code metadata} and {@code ruleSet} when the client gives them. Unknown fields are
 * ignored, as Confluent's server ignores them. In IMPORT mode two fields of Quire's own may come
 * along ({@code quire.jar import-apicurio} sends them): {@code globalId}, the version's global id in
 * the registry it comes from, and {@code deprecated}; elsewhere they are refused.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RegisterRequest(String schema, String schemaType, List<SchemaReference> references, Integer id,
                              Integer version, Metadata metadata, RuleSet ruleSet, Long globalId, Boolean deprecated) {

    /** A request as Confluent's clients send it (no global id, no deprecated flag: those are imports' only). */
    public RegisterRequest(String schema, String schemaType, List<SchemaReference> references, Integer id,
                           Integer version, Metadata metadata, RuleSet ruleSet) {
        this(schema, schemaType, references, id, version, metadata, ruleSet, null, null);
    }

    /** A request without a data contract. */
    public RegisterRequest(String schema, String schemaType, List<SchemaReference> references, Integer id,
                           Integer version) {
        this(schema, schemaType, references, id, version, null, null);
    }

    public List<SchemaReference> referencesOrEmpty() {
        return references == null ? List.of() : references;
    }
}
