package io.quire.journal.command;

import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Subject;

/**
 * Soft-delete a DEK version ({@code version} null: every version of the subject and algorithm),
 * or remove soft-deleted ones ({@code permanent}).
 */
public record DeleteDek(String kekName, String dekSubject, DekAlgorithm algorithm, Integer version, boolean permanent)
        implements Command {

    @Override
    public Subject subject() {
        return Subject.isValid(dekSubject) ? Subject.of(dekSubject) : null;
    }

    @Override
    public CommandType type() {
        return CommandType.DELETE_DEK;
    }
}
