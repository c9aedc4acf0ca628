package io.quire.node.http;

import io.quire.journal.model.Association;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.node.api.AssociationRequest;
import io.quire.node.error.RegistryException;
import io.quire.node.service.Associations;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

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
        var caller = Params.caller(ctx);
        for (AssociationRequest.Entry e : req.associationsOrEmpty()) {
            if (e != null && e.subject() != null && !caller.mayTouch(e.subject())) {
                throw RegistryException.of(ErrorCode.FORBIDDEN, "Forbidden: " + caller.name()
                        + " may not act on subject '" + e.subject() + "'");
            }
        }
        Async.reply(ctx, associations.set(req, replace, Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value()));
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
        Async.reply(ctx, associations.delete(ctx.pathParam("id"), Params.text(ctx, "resourceType"),
                ctx.queryParams().getAll("associationType"), Params.principal(ctx)),
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
