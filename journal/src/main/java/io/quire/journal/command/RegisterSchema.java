package io.quire.journal.command;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Offset;
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
 */
public record RegisterSchema(
        Subject subject,
        SchemaType schemaType,
        String schema,
        List<SchemaReference> references,
        String fingerprint,
        SchemaId proposedId,
        CompatibilityLevel checkedLevel,
        Offset checkedRevision) implements Command {

    public RegisterSchema {
        references = references == null ? List.of() : List.copyOf(references);
    }

    @Override
    public CommandType type() {
        return CommandType.REGISTER_SCHEMA;
    }
}
