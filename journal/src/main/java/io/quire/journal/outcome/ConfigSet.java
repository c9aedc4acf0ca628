package io.quire.journal.outcome;

import io.quire.journal.model.CompatibilityLevel;

/** The level now in force where it was set. */
public record ConfigSet(CompatibilityLevel level) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.CONFIG_SET;
    }
}
