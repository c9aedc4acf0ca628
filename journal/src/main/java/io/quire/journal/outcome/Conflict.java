package io.quire.journal.outcome;

/** A precondition the edge checked no longer holds; nothing changed. The edge re-checks and resubmits. */
public record Conflict(String reason) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.CONFLICT;
    }
}
