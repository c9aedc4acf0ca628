package io.quire.node.view.apply;

import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.outcome.Outcome;

/** Told, on the applier thread, after each journal record is applied and stored. */
@FunctionalInterface
public interface ApplyListener {

    /** @param envelope null for an unreadable record applied as a rejection */
    void applied(Offset offset, Envelope envelope, Outcome outcome);

    ApplyListener NONE = (offset, envelope, outcome) -> { };
}
