package io.quire.node.http;

import io.vertx.core.Context;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/** Brings a result computed on another thread back to the request's event loop. */
final class Async {

    private Async() {
    }

    static <T> void reply(RoutingContext ctx, CompletionStage<T> result, BiConsumer<RoutingContext, T> onSuccess) {
        Context context = ctx.vertx().getOrCreateContext();
        result.whenComplete((value, err) -> context.runOnContext(v -> {
            if (err != null) {
                ctx.fail(err);
            } else {
                try {
                    onSuccess.accept(ctx, value);
                } catch (RuntimeException e) {
                    ctx.fail(e);
                }
            }
        }));
    }
}
