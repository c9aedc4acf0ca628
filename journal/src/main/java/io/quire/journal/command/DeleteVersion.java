package io.quire.journal.command;

/** Soft-delete one version, or permanently remove a soft-deleted one. The edge resolves "latest". */
public record DeleteVersion(String subject, int version, boolean permanent) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_VERSION;
    }
}
