package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Association;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.node.api.AssociationBatch;
import io.quire.node.api.AssociationRequest;
import io.quire.node.api.AssociationResponse;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.InvalidSchemaException;
import io.quire.node.service.Associations;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/** {@code /associations…}: create, replace, look up and delete associations of resources and subjects. */
final class AssociationsHandler {

    private final Associations associations;
    private final int maxPageSize;

    AssociationsHandler(Associations associations, int maxPageSize) {
        this.associations = associations;
        this.maxPageSize = maxPageSize;
    }

    void create(RoutingContext ctx) {
        set(ctx, false);
    }

    void replace(RoutingContext ctx) {
        set(ctx, true);
    }

    private void set(RoutingContext ctx, boolean replace) {
        AssociationRequest req = ApiJson.body(ctx, AssociationRequest.class);
        mayTouchAll(ctx, req.associationsOrEmpty().stream().filter(e -> e != null && e.subject() != null)
                .map(AssociationRequest.Entry::subject).toList());
        Async.reply(ctx, associations.set(req, replace, Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }

    /** 403 unless the caller may act on every one of these subjects. */
    private static void mayTouchAll(RoutingContext ctx, List<String> subjects) {
        var caller = Params.caller(ctx);
        for (String s : subjects) {
            if (!caller.mayTouch(s)) {
                throw RegistryException.of(ErrorCode.FORBIDDEN, "Forbidden: " + caller.name()
                        + " may not act on subject '" + s + "'");
            }
        }
    }

    /**
     * {@code POST /associations:batchMutate}: each request on its own (a refusal of one is its
     * result, the others go on), in order; 207 with one result per request, as Confluent answers
     * its batch calls. The offset header is the last write's.
     */
    void batchMutate(RoutingContext ctx) {
        AssociationBatch.Mutations body = ApiJson.body(ctx, AssociationBatch.Mutations.class);
        boolean dryRun = Params.flag(ctx, "dryRun");
        Principal principal = Params.principal(ctx);
        for (AssociationBatch.Mutation m : body.requestsOrEmpty()) {
            if (m != null) {
                mayTouchAll(ctx, m.associationsOrEmpty().stream().filter(op -> op != null && op.subject() != null)
                        .map(AssociationBatch.Op::subject).toList());
            }
        }
        List<Result> results = new ArrayList<>();
        CompletableFuture<Offset> chain = CompletableFuture.completedFuture(null);
        for (AssociationBatch.Mutation m : body.requestsOrEmpty()) {
            chain = chain.thenCompose(last -> attempt(() -> associations.mutate(m, dryRun, principal)).handle((w, e) -> {
                results.add(e == null ? new Result(w.value(), null) : new Result(null, errorBody(e)));
                return e == null ? w.offset() : last;
            }));
        }
        Async.reply(ctx, chain, (c, offset) -> {
            if (offset != null) {
                c.response().putHeader(ApiJson.OFFSET_HEADER, offset.toString());
            }
            ApiJson.send(c, 207, new Results(results));
        });
    }

    /** {@code POST /associations:batchGet}: one result per request, a refusal in its place. */
    void batchGet(RoutingContext ctx) {
        AssociationBatch.Gets body = ApiJson.body(ctx, AssociationBatch.Gets.class);
        boolean includeSchemas = Params.flag(ctx, "includeSchemas");
        var caller = Params.caller(ctx);
        List<Result> results = new ArrayList<>();
        for (AssociationBatch.Get g : body.requestsOrEmpty()) {
            try {
                if (g == null) {
                    throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: a request is null");
                }
                AssociationResponse r = associations.get(g, includeSchemas);
                results.add(new Result(new AssociationResponse(r.resourceName(), r.resourceNamespace(), r.resourceId(),
                        r.resourceType(), r.associations().stream().filter(i -> caller.mayTouch(i.subject())).toList()),
                        null));
            } catch (RegistryException e) {
                results.add(new Result(null, errorBody(e)));
            }
        }
        ApiJson.ok(ctx, new Results(results));
    }

    /** One request's answer in a batch: its result or its error, as Confluent's AssociationResult. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Result(AssociationResponse result, ApiJson.ErrorBody error) {
    }

    record Results(List<Result> results) {
    }

    private static <T> CompletableFuture<T> attempt(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A refusal as a batch result shows it; anything else fails the whole call (and is logged there). */
    private static ApiJson.ErrorBody errorBody(Throwable e) {
        Throwable t = e;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof RegistryException r) {
            return new ApiJson.ErrorBody(r.error().code, Messages.clean(r.getMessage()));
        }
        if (t instanceof InvalidSchemaException s) {
            return new ApiJson.ErrorBody(ErrorCode.INVALID_SCHEMA.code, Messages.clean(s.getMessage()));
        }
        throw new CompletionException(t);
    }

    void byResourceName(RoutingContext ctx) {
        ApiJson.ok(ctx, Paging.page(ctx, visible(ctx, associations.byResourceName(ctx.pathParam("name"),
                ctx.pathParam("namespace"), filter(ctx))), maxPageSize));
    }

    void byResourceId(RoutingContext ctx) {
        ApiJson.ok(ctx, Paging.page(ctx, visible(ctx, associations.byResourceId(ctx.pathParam("id"), filter(ctx))),
                maxPageSize));
    }

    void bySubject(RoutingContext ctx) {
        ApiJson.ok(ctx, Paging.page(ctx, associations.bySubject(Params.subject(ctx), filter(ctx)), maxPageSize));
    }

    void delete(RoutingContext ctx) {
        boolean cascade = Params.flag(ctx, "cascadeLifecycle");
        String id = ctx.pathParam("id");
        List<String> roles = ctx.queryParams().getAll("associationType");
        if (cascade) { // subjects go too, permanently: the caller needs the right to delete them
            AuthHandler.check(ctx, Access.ADMIN); // a permanent delete of subjects
            mayTouchAll(ctx, associations.toDelete(id, Params.text(ctx, "resourceType"), roles).stream()
                    .map(a -> a.subject().name()).toList());
        }
        Async.reply(ctx, associations.delete(id, Params.text(ctx, "resourceType"), roles, cascade, Params.principal(ctx)),
                (c, w) -> {
                    c.response().setStatusCode(204);
                    c.response().putHeader(ApiJson.OFFSET_HEADER, w.offset().toString()).end();
                });
    }

    /** Only the associations of subjects the caller may see. */
    private static List<Association> visible(RoutingContext ctx, List<Association> all) {
        var caller = Params.caller(ctx);
        return all.stream().filter(a -> caller.mayTouch(a.subject())).toList();
    }

    private static Associations.Filter filter(RoutingContext ctx) {
        String lifecycle = Params.text(ctx, "lifecycle");
        Lifecycle parsed = null;
        if (lifecycle != null && !lifecycle.isEmpty()) {
            try {
                parsed = Lifecycle.valueOf(lifecycle);
            } catch (IllegalArgumentException e) {
                throw RegistryException.of(ErrorCode.INVALID_ASSOCIATION, "Invalid association: lifecycle is STRONG or WEAK");
            }
        }
        List<String> roles = ctx.queryParams().getAll("associationType");
        return new Associations.Filter(Params.text(ctx, "resourceType"), roles, parsed);
    }
}
