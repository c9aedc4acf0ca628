package io.quire.journal.outcome;

import io.quire.journal.model.Version;
import java.util.List;

/** The versions the delete removed (soft or permanently), ascending. */
public record SubjectDeleted(List<Version> versions) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.SUBJECT_DELETED;
    }
}
