package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** {@code PAUSE}, {@code RESUME} or {@code RESET} (back to the journal's start; paused only) an exporter. */
public record ControlExporter(String name, String action) implements Command {

    public static final String PAUSE = "PAUSE";
    public static final String RESUME = "RESUME";
    public static final String RESET = "RESET";

    @Override
    public CommandType type() {
        return CommandType.CONTROL_EXPORTER;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
