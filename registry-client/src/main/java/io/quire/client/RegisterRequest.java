package io.quire.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import java.util.List;

/**
 * The body of {@code POST /subjects/{s}/versions} and {@code POST /subjects/{s}}, with the data
 * contract's {@code metadata} and {@code ruleSet} when the client gives them. Unknown fields are
 * ignored, as Confluent's server ignores them. In IMPORT mode two fields of Quire's own may come
 * along ({@code quire.jar import-apicurio} sends them): {@code globalId}, the version's global id in
 * the registry it comes from, and {@code deprecated}; elsewhere they are refused. The same record is
 * what {@link RegistryClient} sends: an import with its id and version is one of these, with no
 * null field written.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    /**
     * A version to import with the id and version it has where it comes from; Avro is sent without a
     * type, as Confluent's clients send it, and no references as none.
     */
    public static RegisterRequest imported(String schema, String schemaType, List<SchemaReference> references,
                                           int id, int version, Metadata metadata, RuleSet ruleSet) {
        return new RegisterRequest(schema, schemaType == null || "AVRO".equals(schemaType) ? null : schemaType,
                references == null || references.isEmpty() ? null : references, id, version, metadata, ruleSet);
    }

    /** This request with an import's two fields of Quire's own (null: not sent). */
    public RegisterRequest withApicurioFields(Long globalId, boolean deprecated) {
        return new RegisterRequest(schema, schemaType, references, id, version, metadata, ruleSet, globalId,
                deprecated ? Boolean.TRUE : null);
    }

    @JsonIgnore
    public List<SchemaReference> referencesOrEmpty() {
        return references == null ? List.of() : references;
    }
}
