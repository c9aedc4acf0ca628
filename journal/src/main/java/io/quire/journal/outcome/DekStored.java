package io.quire.journal.outcome;

import io.quire.journal.model.Dek;

/** The DEK version as it is now stored. */
public record DekStored(Dek dek) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.DEK_STORED;
    }
}
