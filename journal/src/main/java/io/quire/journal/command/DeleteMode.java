package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** Remove a subject's own mode, or reset the global one when null. */
public record DeleteMode(Subject subject) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_MODE;
    }
}
