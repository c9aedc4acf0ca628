package io.quire.journal.outcome;

/** A task's lease was taken, renewed or given up: who holds it now (null: nobody) and until when. */
public record LeaseTaken(String name, String holder, long until) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.LEASE_TAKEN;
    }
}
