package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** Remove an exporter and what the journal kept of its run. */
public record DeleteExporter(String name) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_EXPORTER;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
