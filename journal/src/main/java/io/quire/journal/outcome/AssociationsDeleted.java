package io.quire.journal.outcome;

import io.quire.journal.model.Association;
import java.util.List;

/** The associations removed. */
public record AssociationsDeleted(List<Association> associations) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.ASSOCIATIONS_DELETED;
    }
}
