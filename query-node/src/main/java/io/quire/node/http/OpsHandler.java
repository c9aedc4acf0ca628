package io.quire.node.http;

import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.service.ViewAccess;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** Root, health, metrics and the admin endpoints operators and {@code verify} use. */
final class OpsHandler {

    private final NodeStatus status;
    private final QuireMetrics metrics;
    private final ViewAccess access;
    private final Executor workers;

    OpsHandler(NodeStatus status, QuireMetrics metrics, ViewAccess access, Executor workers) {
        this.status = status;
        this.metrics = metrics;
        this.access = access;
        this.workers = workers;
    }

    void root(RoutingContext ctx) {
        ApiJson.ok(ctx, Map.of());
    }

    void live(RoutingContext ctx) {
        ApiJson.ok(ctx, Map.of("status", "UP"));
    }

    void ready(RoutingContext ctx) {
        Map<String, Object> body = new LinkedHashMap<>();
        boolean ready = status.ready();
        boolean journal = status.journalReachable();
        // Without the journal the node still serves reads from its view: ready for reads, degraded for writes.
        body.put("status", !ready ? "DOWN" : journal ? "UP" : "DEGRADED");
        body.put("state", status.state());
        body.put("journal", journal ? "reachable" : "unreachable");
        body.put("appliedOffset", status.appliedOffset());
        ApiJson.send(ctx, ready ? 200 : 503, body);
    }

    void metrics(RoutingContext ctx) {
        ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8").end(metrics.scrape());
    }

    /** The applied offset and the rolling digest of (offset, outcome): equal on replicas at the same offset. */
    void position(RoutingContext ctx) {
        Position p = access.view().position();
        ApiJson.ok(ctx, Map.of("offset", p.offset(), "digest", p.digestHex(), "digestVersion", p.digestVersion()));
    }

    /** A snapshot of the view under the node's data dir, for {@code quire.jar snapshot}. */
    void snapshot(RoutingContext ctx) {
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> {
            try {
                return status.snapshot();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, workers), ApiJson::ok);
    }

    /** A digest of every byte of the view (a full scan, on a worker): equal to a fresh rebuild's. */
    void viewDigest(RoutingContext ctx) {
        RegistryView view = access.view();
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> {
            // Scan first and read the position after: the scan covers at least that much.
            String digest = ViewDigest.of(view.kv());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("viewDigest", digest);
            return body;
        }, workers), ApiJson::ok);
    }
}
