package io.quire.journal.outcome;

/** The schema has this id and version in the subject; {@code created} is false when it was there already. */
public record SchemaRegistered(long id, int version, boolean created) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.SCHEMA_REGISTERED;
    }
}
