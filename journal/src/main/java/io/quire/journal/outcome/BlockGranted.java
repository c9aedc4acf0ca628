package io.quire.journal.outcome;

/** The ids {@code [start, start + size)} now belong to the node that asked. */
public record BlockGranted(long start, int size) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.BLOCK_GRANTED;
    }
}
