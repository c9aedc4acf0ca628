package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.List;

/**
 * Register {@code schema} under {@code subject} with the id (and version) it had in another
 * registry: the IMPORT mode write, used to migrate with ids preserved. No compatibility check.
 *
 * @param fingerprint hex SHA-256 of type, canonical text and references, as for {@link RegisterSchema}
 * @param id the id to keep; the applier raises the id watermark above it so it is never leased
 * @param version the version to keep; 0 means the subject's next version
 * @param metadata the data contract's metadata as the other registry stored it; null when none
 * @param ruleSet the data contract's rules as the other registry stored them; null when none
 * @param globalId the version's global id in the other registry (Apicurio's), kept as the
 *     version's global id; null: the next one, as for a registration
 * @param deprecated true when the other registry marked the version deprecated (Apicurio's
 *     DEPRECATED state); null or false otherwise
 * @param index the schema's search terms, as {@link RegisterSchema#index}; absent from records before search
 */
public record ImportSchema(
        Subject subject,
        SchemaType schemaType,
        String schema,
        List<SchemaReference> references,
        Fingerprint fingerprint,
        SchemaId id,
        Version version,
        @JsonInclude(JsonInclude.Include.NON_NULL) Metadata metadata,
        @JsonInclude(JsonInclude.Include.NON_NULL) RuleSet ruleSet,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long globalId,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean deprecated,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> index) implements Command {

    public ImportSchema {
        references = references == null ? List.of() : List.copyOf(references);
        index = index == null ? List.of() : List.copyOf(index);
    }

    /** An import without search terms. */
    public ImportSchema(Subject subject, SchemaType schemaType, String schema, List<SchemaReference> references,
                        Fingerprint fingerprint, SchemaId id, Version version, Metadata metadata, RuleSet ruleSet,
                        Long globalId, Boolean deprecated) {
        this(subject, schemaType, schema, references, fingerprint, id, version, metadata, ruleSet, globalId, deprecated,
                List.of());
    }

    /** An import without a data contract. */
    public ImportSchema(Subject subject, SchemaType schemaType, String schema, List<SchemaReference> references,
                        Fingerprint fingerprint, SchemaId id, Version version) {
        this(subject, schemaType, schema, references, fingerprint, id, version, null, null);
    }

    /** An import with a data contract, without another registry's global id. */
    public ImportSchema(Subject subject, SchemaType schemaType, String schema, List<SchemaReference> references,
                        Fingerprint fingerprint, SchemaId id, Version version, Metadata metadata, RuleSet ruleSet) {
        this(subject, schemaType, schema, references, fingerprint, id, version, metadata, ruleSet, null, null);
    }

    public boolean markedDeprecated() {
        return Boolean.TRUE.equals(deprecated);
    }

    @Override
    public CommandType type() {
        return CommandType.IMPORT_SCHEMA;
    }
}
