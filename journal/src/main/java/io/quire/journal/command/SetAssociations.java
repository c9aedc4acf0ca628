package io.quire.journal.command;

import io.quire.journal.model.Association;
import io.quire.journal.model.Subject;
import java.util.List;

/**
 * Associate subjects with one resource, one association per role. {@code replace} false (POST)
 * refuses a role the resource already has; true (PUT) replaces it unless it is frozen. All or
 * nothing: one refused association refuses the command.
 */
public record SetAssociations(List<Association> associations, boolean replace) implements Command {

    public SetAssociations {
        associations = associations == null ? List.of() : List.copyOf(associations);
    }

    /** Associations are not about one subject (the audit trail names none). */
    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.SET_ASSOCIATIONS;
    }
}
