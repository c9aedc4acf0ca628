package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Offset;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import java.util.List;

/**
 * Register {@code schema} (already parsed and in canonical form) under {@code subject}.
 *
 * @param fingerprint hex SHA-256 of type, canonical text and references: the content identity
 * @param proposedId an id from the sending node's leased block, used only if the content is new
 * @param checkedLevel the compatibility level the edge checked against
 * @param checkedRevision the subject revision the edge checked against ({@link Offset#NONE}: subject absent);
 *     the applier refuses with a retryable conflict when either no longer holds
 * @param metadata the data contract's metadata as stored (the edge merged defaults, the request or the
 *     previous version, and overrides); null when there is none, and absent from records before contracts
 * @param ruleSet the data contract's rules as stored, merged the same way; null when there are none
 * @param lintWarnings the lint violations the edge found under a lint config that warns (docs/lint.md),
 *     kept for the audit trail; empty when there are none, and absent from records before lint
 * @param index the schema's search terms ({@link io.quire.journal.model.SearchTerm#encode}), which the
 *     applier files in the view's index when the content is new; absent from records before search
 */
public record RegisterSchema(
        Subject subject,
        SchemaType schemaType,
        String schema,
        List<SchemaReference> references,
        Fingerprint fingerprint,
        SchemaId proposedId,
        CompatibilityLevel checkedLevel,
        Offset checkedRevision,
        @JsonInclude(JsonInclude.Include.NON_NULL) Metadata metadata,
        @JsonInclude(JsonInclude.Include.NON_NULL) RuleSet ruleSet,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> lintWarnings,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> index) implements Command {

    public RegisterSchema {
        references = references == null ? List.of() : List.copyOf(references);
        lintWarnings = lintWarnings == null ? List.of() : List.copyOf(lintWarnings);
        index = index == null ? List.of() : List.copyOf(index);
    }

    /** A registration without search terms. */
    public RegisterSchema(Subject subject, SchemaType schemaType, String schema, List<SchemaReference> references,
                          Fingerprint fingerprint, SchemaId proposedId, CompatibilityLevel checkedLevel,
                          Offset checkedRevision, Metadata metadata, RuleSet ruleSet, List<String> lintWarnings) {
        this(subject, schemaType, schema, references, fingerprint, proposedId, checkedLevel, checkedRevision, metadata,
                ruleSet, lintWarnings, List.of());
    }

    /** A registration with no lint warnings. */
    public RegisterSchema(Subject subject, SchemaType schemaType, String schema, List<SchemaReference> references,
                          Fingerprint fingerprint, SchemaId proposedId, CompatibilityLevel checkedLevel,
                          Offset checkedRevision, Metadata metadata, RuleSet ruleSet) {
        this(subject, schemaType, schema, references, fingerprint, proposedId, checkedLevel, checkedRevision, metadata,
                ruleSet, List.of());
    }

    /** A registration without a data contract. */
    public RegisterSchema(Subject subject, SchemaType schemaType, String schema, List<SchemaReference> references,
                          Fingerprint fingerprint, SchemaId proposedId, CompatibilityLevel checkedLevel,
                          Offset checkedRevision) {
        this(subject, schemaType, schema, references, fingerprint, proposedId, checkedLevel, checkedRevision, null,
                null);
    }

    @Override
    public CommandType type() {
        return CommandType.REGISTER_SCHEMA;
    }
}
