package io.quire.journal.outcome;

import io.quire.journal.model.Mode;

/** The mode that was removed. */
public record ModeDeleted(Mode previous) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.MODE_DELETED;
    }
}
