package io.quire.node.http;

import io.quire.node.service.ViewAccess;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * The node's lifecycle as every request meets it, in one handler ahead of the rest:
 * <ul>
 * <li>while the node stops (the endpoint-removal window), each answer carries
 * {@code Connection: close}, so no client keeps a connection to it for a next request;</li>
 * <li>a request that arrives while the view is being restored (a node starting on its own view, as
 * in a rolling restart) waits for the view, up to the read-wait timeout, instead of being refused
 * with 503 at once; past that it goes on and gets the 503. Health, metrics and the console answer
 * at once: they say what the node is doing.</li>
 * </ul>
 */
final class NodeGate implements Handler<RoutingContext> {

    private static final long POLL_MILLIS = 20;

    private final NodeStatus status;
    private final ViewAccess access;
    private final long timeoutMs;

    NodeGate(NodeStatus status, ViewAccess access, long timeoutMs) {
        this.status = status;
        this.access = access;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public void handle(RoutingContext ctx) {
        if (status.stopping()) {
            ctx.response().putHeader("Connection", "close");
        }
        String path = ctx.request().path();
        if (access.isOpen() || timeoutMs <= 0 || path.startsWith("/health/") || path.equals("/metrics")
                || path.startsWith("/ui")) {
            ctx.next();
            return;
        }
        ctx.request().pause(); // the body handler resumes it
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        ctx.vertx().setPeriodic(POLL_MILLIS, id -> {
            if (access.isOpen() || System.nanoTime() > deadline || ctx.response().closed()) {
                ctx.vertx().cancelTimer(id);
                ctx.next();
            }
        });
    }
}
