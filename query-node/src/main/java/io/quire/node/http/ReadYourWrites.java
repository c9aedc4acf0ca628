package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.node.error.RegistryException;
import io.quire.node.view.apply.AppliedTracker;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * A request carrying {@value #HEADER} waits, bounded, until this node has applied that journal
 * offset: a write on one node followed by a read on another sees the write.
 */
final class ReadYourWrites implements Handler<RoutingContext> {

    static final String HEADER = "X-Quire-Min-Offset";

    private final AppliedTracker tracker;
    private final long timeoutMs;

    ReadYourWrites(AppliedTracker tracker, long timeoutMs) {
        this.tracker = tracker;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public void handle(RoutingContext ctx) {
        String wanted = ctx.request().getHeader(HEADER);
        if (wanted == null) {
            ctx.next();
            return;
        }
        Offset offset;
        try {
            offset = Offset.of(Long.parseLong(wanted.trim()));
        } catch (NumberFormatException e) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, HEADER + " must be a journal offset");
        }
        Async.reply(ctx, tracker.awaitOffset(offset).orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                .exceptionally(err -> {
                    Throwable cause = err instanceof CompletionException && err.getCause() != null
                            ? err.getCause() : err;
                    if (cause instanceof AppliedTracker.TooManyWaiters full) {
                        throw RegistryException.retryLater(ErrorCode.TOO_MANY_REQUESTS, 1, full.getMessage());
                    }
                    throw RegistryException.of(ErrorCode.OPERATION_TIMEOUT,
                            "offset " + offset + " not applied on this node within " + timeoutMs + " ms");
                }), (c, v) -> c.next());
    }
}
