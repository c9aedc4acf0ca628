package io.quire.journal.command;

import io.quire.journal.model.CompatibilityLevel;

/** Set the compatibility level of a subject, or the global one when {@code subject} is null. */
public record SetConfig(String subject, CompatibilityLevel level) implements Command {

    @Override
    public CommandType type() {
        return CommandType.SET_CONFIG;
    }
}
