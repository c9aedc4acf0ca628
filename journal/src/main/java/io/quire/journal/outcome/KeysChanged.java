package io.quire.journal.outcome;

/** How many keys a delete or undelete changed. */
public record KeysChanged(int count) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.KEYS_CHANGED;
    }
}
