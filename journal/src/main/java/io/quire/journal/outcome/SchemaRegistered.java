package io.quire.journal.outcome;

import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Version;

/** The schema has this id and version in the subject; {@code created} is false when it was there already. */
public record SchemaRegistered(SchemaId id, Version version, boolean created) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.SCHEMA_REGISTERED;
    }
}
