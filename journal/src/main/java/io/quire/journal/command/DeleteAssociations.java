package io.quire.journal.command;

import io.quire.journal.model.Subject;
import java.util.List;

/**
 * Remove a resource's associations of the given roles (all roles when {@code associationTypes} is
 * empty). A frozen association is not removed (the command is refused).
 */
public record DeleteAssociations(String resourceId, String resourceType, List<String> associationTypes)
        implements Command {

    public DeleteAssociations {
        associationTypes = associationTypes == null ? List.of() : List.copyOf(associationTypes);
    }

    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.DELETE_ASSOCIATIONS;
    }
}
