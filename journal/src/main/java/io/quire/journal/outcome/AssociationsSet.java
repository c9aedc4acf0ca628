package io.quire.journal.outcome;

import io.quire.journal.model.Association;
import java.util.List;

/** The associations as they now are. */
public record AssociationsSet(List<Association> associations) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.ASSOCIATIONS_SET;
    }
}
