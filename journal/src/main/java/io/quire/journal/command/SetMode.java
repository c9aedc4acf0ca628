package io.quire.journal.command;

import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;

/** Set the mode of a subject, or the global mode when {@code subject} is null. */
public record SetMode(Subject subject, Mode mode) implements Command {

    @Override
    public CommandType type() {
        return CommandType.SET_MODE;
    }
}
