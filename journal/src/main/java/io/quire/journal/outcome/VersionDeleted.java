package io.quire.journal.outcome;

/** The version the delete removed (soft or permanently). */
public record VersionDeleted(int version) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.VERSION_DELETED;
    }
}
