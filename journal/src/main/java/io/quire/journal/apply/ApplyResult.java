package io.quire.journal.apply;

import io.quire.journal.outcome.Outcome;
import io.quire.journal.view.Changes;
import io.quire.journal.view.Position;

/**
 * What applying one journal record yields: the writes to make atomically (the new position and the
 * outcome record included) and the outcome. {@code alreadyApplied} results carry no writes.
 */
public record ApplyResult(Changes changes, Outcome outcome, Position position, boolean alreadyApplied) {

    static ApplyResult skipped(Position current) {
        return new ApplyResult(new Changes(), null, current, true);
    }
}
