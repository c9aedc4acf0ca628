package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** Remove a subject's own level (it falls back to global), or reset the global one when null. */
public record DeleteConfig(Subject subject) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_CONFIG;
    }
}
