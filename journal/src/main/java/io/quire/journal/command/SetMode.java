package io.quire.journal.command;

import io.quire.journal.model.Mode;

/** Set the mode of a subject, or the global mode when {@code subject} is null. */
public record SetMode(String subject, Mode mode) implements Command {

    @Override
    public CommandType type() {
        return CommandType.SET_MODE;
    }
}
