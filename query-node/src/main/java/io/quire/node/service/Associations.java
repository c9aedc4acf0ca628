package io.quire.node.service;

import io.quire.journal.apply.Applier;
import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.model.Association;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.AssociationsDeleted;
import io.quire.journal.outcome.AssociationsSet;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.AssociationRequest;
import io.quire.node.api.AssociationResponse;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code /associations}: which subject a resource (a topic, by default) uses for each role, as
 * Confluent's associations API and the clients' associated subject name strategy use it.
 */
public final class Associations {

    /** The namespace that matches every namespace in a lookup by resource name. */
    public static final String ANY_NAMESPACE = "-";

    private final ViewAccess access;
    private final WritePath path;
    private final Registrations registrations;

    Associations(ViewAccess access, WritePath path, Registrations registrations) {
        this.access = access;
        this.path = path;
        this.registrations = registrations;
    }

    /**
     * Creates ({@code replace} false: a role already taken is 40903) or creates and replaces the
     * associations of one resource, registering first the schemas the request carries.
     */
    public CompletableFuture<Written<AssociationResponse>> set(AssociationRequest req, boolean replace,
                                                              String principal) {
        List<Association> wanted = new ArrayList<>();
        CompletableFuture<Void> schemasFirst = CompletableFuture.completedFuture(null);
        for (AssociationRequest.Entry e : req.associationsOrEmpty()) {
            if (e == null) {
                throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: an entry is null");
            }
            Subject subject = e.subject() == null ? null : Subject.of(e.subject());
            wanted.add(new Association(subject, req.resourceName(), req.resourceNamespace(), req.resourceId(),
                    req.resourceType(), e.associationType(), e.lifecycle(), Boolean.TRUE.equals(e.frozen())));
            if (e.schema() != null && subject != null) {
                boolean normalize = Boolean.TRUE.equals(e.normalize());
                schemasFirst = schemasFirst.thenCompose(v -> registrations.register(subject, e.schema(), normalize,
                        principal).thenApply(w -> null));
            }
        }
        SetAssociations command = new SetAssociations(wanted, replace);
        return schemasFirst.thenCompose(v -> {
            WritePath.refuse(Applier.refusal(access.view(), command)); // nothing doomed reaches the journal
            return path.submit(command, principal, AssociationsSet.class, set -> AssociationResponse.of(set.associations()));
        });
    }

    public CompletableFuture<Written<List<Association>>> delete(String resourceId, String resourceType,
                                                              List<String> associationTypes, String principal) {
        DeleteAssociations command = new DeleteAssociations(resourceId, resourceType, associationTypes);
        WritePath.refuse(Applier.refusal(access.view(), command));
        return path.submit(command, principal, AssociationsDeleted.class, AssociationsDeleted::associations);
    }

    /** A filter of the lookups: the resource type (default topic), roles (none: all) and lifecycle (null: both). */
    public record Filter(String resourceType, List<String> associationTypes, Lifecycle lifecycle) {

        public Filter {
            resourceType = resourceType == null || resourceType.isEmpty() ? Association.DEFAULT_RESOURCE_TYPE
                    : resourceType;
            associationTypes = associationTypes == null ? List.of() : List.copyOf(associationTypes);
        }

        boolean matches(Association a) {
            return a.resourceType().equals(resourceType)
                    && (associationTypes.isEmpty() || associationTypes.contains(a.associationType()))
                    && (lifecycle == null || lifecycle == a.lifecycle());
        }
    }

    public List<Association> byResourceName(String name, String namespace, Filter filter) {
        return access.view().associationsByName(name, ANY_NAMESPACE.equals(namespace) ? null : namespace).stream()
                .filter(filter::matches).toList();
    }

    public List<Association> byResourceId(String resourceId, Filter filter) {
        return access.view().associations(resourceId, null).stream().filter(filter::matches).toList();
    }

    public List<Association> bySubject(Subject subject, Filter filter) {
        RegistryView view = access.view();
        return view.subjectAssociations(subject).stream().filter(filter::matches).toList();
    }
}
