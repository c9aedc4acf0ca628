package io.quire.journal.outcome;

/** An exporter was created, changed, controlled, leased or deleted. */
public record ExporterChanged(String name) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.EXPORTER_CHANGED;
    }
}
