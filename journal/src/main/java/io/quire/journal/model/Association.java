package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A subject associated with a resource (a Kafka topic, by default) for one role ({@code
 * associationType}: "key" or "value" for a topic), as Confluent's associations API names it.
 * Clients using the associated subject name strategy look the subject up by the topic's name.
 * The {@code guid} names the association itself; the applier gives it (a request never does).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Association(Subject subject, String resourceName, String resourceNamespace, String resourceId,
                          String resourceType, String associationType, Lifecycle lifecycle, boolean frozen,
                          String guid) {

    public static final String DEFAULT_RESOURCE_TYPE = "topic";
    public static final String DEFAULT_ASSOCIATION_TYPE = "value";

    public Association {
        resourceType = resourceType == null || resourceType.isEmpty() ? DEFAULT_RESOURCE_TYPE : resourceType;
        associationType = associationType == null || associationType.isEmpty() ? DEFAULT_ASSOCIATION_TYPE
                : associationType;
        lifecycle = lifecycle == null ? Lifecycle.STRONG : lifecycle;
    }

    /** An association as a request gives it: no GUID yet. */
    public Association(Subject subject, String resourceName, String resourceNamespace, String resourceId,
                       String resourceType, String associationType, Lifecycle lifecycle, boolean frozen) {
        this(subject, resourceName, resourceNamespace, resourceId, resourceType, associationType, lifecycle, frozen,
                null);
    }

    /** The association with another subject, lifecycle and frozen flag, on the same resource and role. */
    public Association with(Subject newSubject, Lifecycle newLifecycle, boolean newFrozen) {
        return new Association(newSubject, resourceName, resourceNamespace, resourceId, resourceType, associationType,
                newLifecycle, newFrozen, guid);
    }

    public Association withGuid(String newGuid) {
        return new Association(subject, resourceName, resourceNamespace, resourceId, resourceType, associationType,
                lifecycle, frozen, newGuid);
    }

    /** The same association, whatever the GUIDs: the same subject, resource, role, lifecycle and flag. */
    public boolean sameAs(Association o) {
        return o != null && withGuid(null).equals(o.withGuid(null));
    }
}
