package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Subject;

/**
 * Set the compatibility level and/or the normalize flag of a subject, or the global ones when
 * {@code subject} is null. A null field is left as it is ({@code normalize} is absent from records
 * written before it existed).
 */
public record SetConfig(Subject subject, CompatibilityLevel level,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean normalize) implements Command {

    public SetConfig(Subject subject, CompatibilityLevel level) {
        this(subject, level, null);
    }

    @Override
    public CommandType type() {
        return CommandType.SET_CONFIG;
    }
}
