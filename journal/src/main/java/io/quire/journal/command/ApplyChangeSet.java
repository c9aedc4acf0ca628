package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.List;

/**
 * Several changes to several subjects as one journal record: every step is applied or none is.
 * The applier first checks each expectation (a subject's latest live version is still the one the
 * change was planned against), then decides the steps in order, each over the view as the steps
 * before it left it; the first refusal refuses the whole set with that step named, and nothing of
 * it is written.
 *
 * @param changeId the change's own id (a Git commit, a ticket), recorded in the audit trail of every version it makes
 * @param message what the change is for, recorded with it; null for none
 * @param expect preconditions: each subject's latest live version as planned
 * @param steps the changes, in the order they are decided
 */
public record ApplyChangeSet(String changeId, @JsonInclude(JsonInclude.Include.NON_NULL) String message,
                             List<Expected> expect, List<Step> steps) implements Command {

    public ApplyChangeSet {
        expect = expect == null ? List.of() : List.copyOf(expect);
        steps = steps == null ? List.of() : List.copyOf(steps);
    }

    /** The subject's latest live version when the change was planned; null: it had none. */
    public record Expected(Subject subject, @JsonInclude(JsonInclude.Include.NON_NULL) Version latest) {
    }

    /**
     * One step: exactly one of its fields is set. Named fields, not class names, on the wire; a
     * step is one of the commands a subject's change is made of.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(RegisterSchema register, SetConfig setConfig, DeleteConfig deleteConfig,
                       DeleteSubject deleteSubject) {

        public static Step of(Command c) {
            if (c instanceof RegisterSchema r) {
                return new Step(r, null, null, null);
            } else if (c instanceof SetConfig s) {
                return new Step(null, s, null, null);
            } else if (c instanceof DeleteConfig d) {
                return new Step(null, null, d, null);
            } else if (c instanceof DeleteSubject d) {
                return new Step(null, null, null, d);
            }
            throw new IllegalArgumentException(c.type().wireName + " cannot be a step of a change set");
        }

        /** The step's command; null when the step holds none or more than one (the applier refuses it). */
        @JsonIgnore
        public Command command() {
            int set = (register != null ? 1 : 0) + (setConfig != null ? 1 : 0) + (deleteConfig != null ? 1 : 0)
                    + (deleteSubject != null ? 1 : 0);
            if (set != 1) {
                return null;
            }
            return register != null ? register : setConfig != null ? setConfig : deleteConfig != null ? deleteConfig
                    : deleteSubject;
        }
    }

    @Override
    public CommandType type() {
        return CommandType.APPLY_CHANGE_SET;
    }

    /** A change set names many subjects: it has no one subject (the audit trail has an entry per step). */
    @Override
    public Subject subject() {
        return null;
    }
}
