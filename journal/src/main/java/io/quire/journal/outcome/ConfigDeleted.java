package io.quire.journal.outcome;

import io.quire.journal.model.CompatibilityLevel;

/** The level that was removed. */
public record ConfigDeleted(CompatibilityLevel previous) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.CONFIG_DELETED;
    }
}
