package io.quire.journal.command;

/** Remove a subject's own level (it falls back to global), or reset the global one when null. */
public record DeleteConfig(String subject) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_CONFIG;
    }
}
