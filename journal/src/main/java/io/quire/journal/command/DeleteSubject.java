package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** Soft-delete every live version of a subject, or permanently remove a soft-deleted subject. */
public record DeleteSubject(Subject subject, boolean permanent) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_SUBJECT;
    }
}
