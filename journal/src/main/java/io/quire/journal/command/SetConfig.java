package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Subject;
import java.util.List;

/**
 * Set any part of the config of a subject, or of the global config when {@code subject} is null: the
 * compatibility level, the normalize flag, the other fields ({@code fields}, its null ones left as
 * they are) and clear the fields named in {@code cleared}. A null part is left as it is; parts
 * added later are absent from the records written before them.
 */
public record SetConfig(Subject subject, CompatibilityLevel level,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean normalize,
                        @JsonInclude(JsonInclude.Include.NON_NULL) ConfigFields fields,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> cleared) implements Command {

    public SetConfig {
        cleared = cleared == null ? List.of() : List.copyOf(cleared);
    }

    public SetConfig(Subject subject, CompatibilityLevel level, Boolean normalize) {
        this(subject, level, normalize, null, null);
    }

    public SetConfig(Subject subject, CompatibilityLevel level) {
        this(subject, level, null);
    }

    /** Whether the command changes nothing at all (refused: Confluent answers 42203 to an empty update). */
    @JsonIgnore
    public boolean isEmpty() {
        return level == null && normalize == null && (fields == null || fields.isNone()) && cleared.isEmpty();
    }

    @Override
    public CommandType type() {
        return CommandType.SET_CONFIG;
    }
}
