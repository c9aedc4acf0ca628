package io.quire.journal.outcome;

import io.quire.journal.model.Mode;

/** The mode now in force where it was set. */
public record ModeSet(Mode mode) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.MODE_SET;
    }
}
