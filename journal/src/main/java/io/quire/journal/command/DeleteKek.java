package io.quire.journal.command;

import io.quire.journal.model.Subject;

/**
 * Soft-delete a KEK, or remove a soft-deleted one; refused while it has DEKs (live ones, or any
 * for a permanent delete).
 */
public record DeleteKek(String name, boolean permanent) implements Command {

    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.DELETE_KEK;
    }
}
