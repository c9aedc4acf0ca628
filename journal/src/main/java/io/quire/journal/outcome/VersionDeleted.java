package io.quire.journal.outcome;

import io.quire.journal.model.Version;

/** The version the delete removed (soft or permanently). */
public record VersionDeleted(Version version) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.VERSION_DELETED;
    }
}
