package io.quire.node.http;

import io.quire.node.service.Contexts;
import io.vertx.ext.web.RoutingContext;

/** {@code /contexts}: the list, and the delete of an empty one (204, with the journal offset). */
final class ContextsHandler {

    private final Contexts contexts;

    ContextsHandler(Contexts contexts) {
        this.contexts = contexts;
    }

    void list(RoutingContext ctx) {
        ApiJson.ok(ctx, contexts.list());
    }

    void delete(RoutingContext ctx) {
        Async.reply(ctx, contexts.delete(ctx.pathParam("context"), Params.principal(ctx)),
                (c, w) -> c.response().putHeader(ApiJson.OFFSET_HEADER, w.offset().toString()).setStatusCode(204).end());
    }
}
