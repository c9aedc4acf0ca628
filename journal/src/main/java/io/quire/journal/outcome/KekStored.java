package io.quire.journal.outcome;

import io.quire.journal.model.Kek;

/** The KEK as it is now stored. */
public record KekStored(Kek kek) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.KEK_STORED;
    }
}
