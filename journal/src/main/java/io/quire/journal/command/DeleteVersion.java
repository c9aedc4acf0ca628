package io.quire.journal.command;

import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;

/** Soft-delete one version, or permanently remove a soft-deleted one. The edge resolves "latest". */
public record DeleteVersion(Subject subject, Version version, boolean permanent) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_VERSION;
    }
}
