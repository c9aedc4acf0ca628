package io.quire.journal.command;

import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Subject;

/** Bring soft-deleted DEK versions back ({@code version} null: every version); the KEK must be live. */
public record UndeleteDek(String kekName, String dekSubject, DekAlgorithm algorithm, Integer version)
        implements Command {

    @Override
    public Subject subject() {
        return Subject.isValid(dekSubject) ? Subject.of(dekSubject) : null;
    }

    @Override
    public CommandType type() {
        return CommandType.UNDELETE_DEK;
    }
}
