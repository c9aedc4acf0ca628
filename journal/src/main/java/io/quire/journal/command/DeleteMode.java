package io.quire.journal.command;

/** Remove a subject's own mode, or reset the global one when null. */
public record DeleteMode(String subject) implements Command {

    @Override
    public CommandType type() {
        return CommandType.DELETE_MODE;
    }
}
