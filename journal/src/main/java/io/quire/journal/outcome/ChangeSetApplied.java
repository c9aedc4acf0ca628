package io.quire.journal.outcome;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Every step of a change set applied, in order: what each came to. */
public record ChangeSetApplied(String changeId, List<StepOutcome> steps) implements Outcome {

    public ChangeSetApplied {
        steps = List.copyOf(steps);
    }

    /** One step's outcome: exactly one field is set. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record StepOutcome(SchemaRegistered registered, ConfigSet configSet, ConfigDeleted configDeleted,
                              SubjectDeleted subjectDeleted) {

        public static StepOutcome of(Outcome o) {
            if (o instanceof SchemaRegistered r) {
                return new StepOutcome(r, null, null, null);
            } else if (o instanceof ConfigSet s) {
                return new StepOutcome(null, s, null, null);
            } else if (o instanceof ConfigDeleted d) {
                return new StepOutcome(null, null, d, null);
            } else if (o instanceof SubjectDeleted d) {
                return new StepOutcome(null, null, null, d);
            }
            throw new IllegalArgumentException(o.type().wireName + " is not a step's outcome");
        }

        /** The outcome held. */
        @JsonIgnore
        public Outcome outcome() {
            return registered != null ? registered : configSet != null ? configSet : configDeleted != null
                    ? configDeleted : subjectDeleted;
        }
    }

    @Override
    public OutcomeType type() {
        return OutcomeType.CHANGE_SET_APPLIED;
    }
}
