package io.quire.journal.outcome;

import io.quire.journal.model.Context;

/** The context that was removed. */
public record ContextDeleted(Context context) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.CONTEXT_DELETED;
    }
}
