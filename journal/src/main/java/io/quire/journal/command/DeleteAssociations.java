package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Subject;
import java.util.List;

/**
 * Remove a resource's associations of the given roles (all roles when {@code associationTypes} is
 * empty). With {@code cascadeLifecycle}, the subject of each STRONG one goes too, permanently (its
 * lifecycle is the resource's); a frozen STRONG association is removed only so. Null (records
 * from before the flag) is false.
 */
public record DeleteAssociations(String resourceId, String resourceType, List<String> associationTypes,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) Boolean cascadeLifecycle)
        implements Command {

    public DeleteAssociations {
        associationTypes = associationTypes == null ? List.of() : List.copyOf(associationTypes);
        cascadeLifecycle = Boolean.TRUE.equals(cascadeLifecycle) ? Boolean.TRUE : null;
    }

    public DeleteAssociations(String resourceId, String resourceType, List<String> associationTypes) {
        this(resourceId, resourceType, associationTypes, null);
    }

    public boolean cascades() {
        return Boolean.TRUE.equals(cascadeLifecycle);
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
