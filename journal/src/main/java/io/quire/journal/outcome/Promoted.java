package io.quire.journal.outcome;

/** {@code region} is the primary from {@code epoch} on; ids are granted from {@code nextId}. */
public record Promoted(String region, int epoch, long nextId) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.PROMOTED;
    }
}
