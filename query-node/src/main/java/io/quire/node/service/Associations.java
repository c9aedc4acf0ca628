package io.quire.node.service;

import io.quire.journal.apply.Applier;
import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.model.Association;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.AssociationsDeleted;
import io.quire.journal.outcome.AssociationsSet;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.AssociationBatch;
import io.quire.node.api.AssociationRequest;
import io.quire.node.api.AssociationResponse;
import io.quire.node.api.SchemaVersion;
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
                                                              Principal principal) {
        List<Association> wanted = wanted(req);
        CompletableFuture<Void> schemasFirst = CompletableFuture.completedFuture(null);
        for (AssociationRequest.Entry e : req.associationsOrEmpty()) {
            Subject subject = e.subject() == null ? null : Subject.of(e.subject());
            if (e.schema() != null && subject != null) {
                boolean normalize = Boolean.TRUE.equals(e.normalize());
                schemasFirst = schemasFirst.thenCompose(v -> registrations.register(subject, e.schema(), normalize,
                        principal).thenApply(w -> null));
            }
        }
        SetAssociations command = new SetAssociations(wanted, replace);
        return schemasFirst.thenCompose(v -> {
            return path.submit(command, principal, AssociationsSet.class, set -> AssociationResponse.of(set.associations()));
        });
    }

    /**
     * Removes a resource's associations of some roles (none given: all); with {@code cascadeLifecycle}
     * the subject of each STRONG one goes too, permanently, in the same journal record.
     */
    public CompletableFuture<Written<List<Association>>> delete(String resourceId, String resourceType,
                                                              List<String> associationTypes, boolean cascadeLifecycle,
                                                              Principal principal) {
        DeleteAssociations command = new DeleteAssociations(resourceId, resourceType, associationTypes,
                cascadeLifecycle);
        return path.submit(command, principal, AssociationsDeleted.class, AssociationsDeleted::associations);
    }

    /** The associations a delete of these roles would remove ({@code null} type: topic), for the caller's checks. */
    public List<Association> toDelete(String resourceId, String resourceType, List<String> associationTypes) {
        return byResourceId(resourceId, new Filter(resourceType, associationTypes, null));
    }

    /**
     * One request of {@code POST /associations:batchMutate}: its operations in order, consecutive
     * ones of a kind as one journal record (CREATE as {@code POST /associations}, UPSERT as
     * {@code PUT}, DELETE as the delete of those roles), stopping at the first refusal. The answer
     * is the resource's associations afterwards. A dry run checks each group against the view as
     * it is and writes nothing.
     */
    public CompletableFuture<Written<AssociationResponse>> mutate(AssociationBatch.Mutation m, boolean dryRun,
                                                                 Principal principal) {
        if (m.resourceId() == null || m.resourceId().isEmpty()) {
            throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: resourceId cannot be null or empty");
        }
        List<List<AssociationBatch.Op>> groups = new ArrayList<>();
        for (AssociationBatch.Op op : m.associationsOrEmpty()) {
            String kind = op == null || op.opType() == null ? "" : op.opType();
            if (!kind.equals("CREATE") && !kind.equals("UPSERT") && !kind.equals("DELETE")) {
                throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION,
                        "Invalid association: opType must be CREATE, UPSERT or DELETE");
            }
            if (groups.isEmpty() || !groups.get(groups.size() - 1).get(0).opType().equals(kind)) {
                groups.add(new ArrayList<>());
            }
            groups.get(groups.size() - 1).add(op);
        }
        CompletableFuture<Offset> done = CompletableFuture.completedFuture(access.view().position().offset());
        for (List<AssociationBatch.Op> group : groups) {
            done = done.thenCompose(before -> apply(m, group, dryRun, principal).thenApply(o -> o == null ? before : o));
        }
        return done.thenApply(offset -> new Written<>(current(m.resourceName(), m.resourceNamespace(), m.resourceId(),
                m.resourceType(), byResourceId(m.resourceId(), new Filter(m.resourceType(), null, null)), false),
                offset));
    }

    /** One group of a batch: the offset it was written at (null for a dry run). */
    private CompletableFuture<Offset> apply(AssociationBatch.Mutation m, List<AssociationBatch.Op> group, boolean dryRun,
                                            Principal principal) {
        String kind = group.get(0).opType();
        if (kind.equals("DELETE")) {
            List<String> roles = group.stream().map(op -> op.associationType() == null || op.associationType().isEmpty()
                    ? Association.DEFAULT_ASSOCIATION_TYPE : op.associationType()).toList();
            if (dryRun) {
                WritePath.refuse(Applier.refusal(access.view(), new DeleteAssociations(m.resourceId(), m.resourceType(),
                        roles)));
                return CompletableFuture.completedFuture(null);
            }
            return delete(m.resourceId(), m.resourceType(), roles, false, principal).thenApply(Written::offset);
        }
        AssociationRequest req = new AssociationRequest(m.resourceName(), m.resourceNamespace(), m.resourceId(),
                m.resourceType(), group.stream().map(AssociationBatch.Op::entry).toList());
        if (dryRun) {
            WritePath.refuse(Applier.refusal(access.view(), new SetAssociations(wanted(req), kind.equals("UPSERT"))));
            return CompletableFuture.completedFuture(null);
        }
        return set(req, kind.equals("UPSERT"), principal).thenApply(Written::offset);
    }

    /**
     * One request of {@code POST /associations:batchGet}: the resource's associations, by id, or
     * by name in a namespace ({@code -}: any); with {@code includeSchemas}, each subject's latest
     * version beside it.
     */
    public AssociationResponse get(AssociationBatch.Get g, boolean includeSchemas) {
        boolean byId = g.resourceId() != null && !g.resourceId().isEmpty();
        boolean byName = g.resourceName() != null && !g.resourceName().isEmpty();
        if (!byId && !byName) {
            throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION,
                    "Invalid association: either resourceId or resourceName must be specified");
        }
        if (!byId && (g.resourceNamespace() == null || g.resourceNamespace().isEmpty())) {
            throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION,
                    "Invalid association: resourceNamespace is required when resourceName is specified");
        }
        Filter f = new Filter(g.resourceType(), g.associationTypes(), g.lifecycle());
        List<Association> found = byId ? byResourceId(g.resourceId(), f)
                : byResourceName(g.resourceName(), g.resourceNamespace(), f);
        return current(g.resourceName(), g.resourceNamespace(), g.resourceId(), f.resourceType(), found, includeSchemas);
    }

    private AssociationResponse current(String name, String namespace, String id, String type, List<Association> found,
                                        boolean includeSchemas) {
        if (found.isEmpty()) {
            return new AssociationResponse(name, namespace, id, type == null ? Association.DEFAULT_RESOURCE_TYPE : type,
                    List.of());
        }
        AssociationResponse r = AssociationResponse.of(found);
        if (!includeSchemas) {
            return r;
        }
        RegistryView view = access.view();
        List<AssociationResponse.Info> infos = new ArrayList<>();
        for (Association a : found) {
            SchemaVersion latest = view.latestLive(a.subject()).flatMap(v -> view.schemaOf(a.subject(), v)
                    .map(s -> SubjectReads.toApi(a.subject(), v, s))).orElse(null);
            infos.add(new AssociationResponse.Info(a.subject(), a.associationType(), a.lifecycle(), a.frozen(), latest));
        }
        return new AssociationResponse(r.resourceName(), r.resourceNamespace(), r.resourceId(), r.resourceType(), infos);
    }

    /** The associations a request asks for, as the journal keeps them (no GUID yet). */
    private static List<Association> wanted(AssociationRequest req) {
        List<Association> wanted = new ArrayList<>();
        for (AssociationRequest.Entry e : req.associationsOrEmpty()) {
            if (e == null) {
                throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: an entry is null");
            }
            Subject subject = e.subject() == null ? null : Subject.of(e.subject());
            wanted.add(new Association(subject, req.resourceName(), req.resourceNamespace(), req.resourceId(),
                    req.resourceType(), e.associationType(), e.lifecycle(), Boolean.TRUE.equals(e.frozen())));
        }
        return wanted;
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
        return access.view().associations().associationsByName(name, ANY_NAMESPACE.equals(namespace) ? null : namespace).stream()
                .filter(filter::matches).toList();
    }

    public List<Association> byResourceId(String resourceId, Filter filter) {
        return access.view().associations().associations(resourceId, null).stream().filter(filter::matches).toList();
    }

    public List<Association> bySubject(Subject subject, Filter filter) {
        RegistryView view = access.view();
        return view.associations().subjectAssociations(subject).stream().filter(filter::matches).toList();
    }
}
