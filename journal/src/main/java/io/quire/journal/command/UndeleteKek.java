package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** Bring a soft-deleted KEK back. */
public record UndeleteKek(String name) implements Command {

    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.UNDELETE_KEK;
    }
}
