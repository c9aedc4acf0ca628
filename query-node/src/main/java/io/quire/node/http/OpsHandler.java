package io.quire.node.http;

import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import io.quire.node.api.Responses;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.service.ViewAccess;
import io.vertx.ext.web.RoutingContext;
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
        ApiJson.ok(ctx, new Responses.Empty());
    }

    void live(RoutingContext ctx) {
        ApiJson.ok(ctx, new Responses.Status("UP"));
    }

    void ready(RoutingContext ctx) {
        boolean ready = status.ready();
        boolean journal = status.journalReachable();
        // Without the journal the node still serves reads from its view: ready for reads, degraded for writes.
        ApiJson.send(ctx, ready ? 200 : 503, new Responses.Readiness(!ready ? "DOWN" : journal ? "UP" : "DEGRADED",
                status.state(), journal ? "reachable" : "unreachable", status.appliedOffset()));
    }

    void metrics(RoutingContext ctx) {
        ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8").end(metrics.scrape());
    }

    /** The applied offset and the rolling digest of (offset, outcome): equal on replicas at the same offset. */
    /** {@code GET /v1/metadata/id}: which Kafka cluster and which registry this node belongs to. */
    void metadataId(RoutingContext ctx) {
        ApiJson.ok(ctx, Responses.ServerClusterId.of(status.kafkaClusterId(), status.registryClusterId()));
    }

    /**
     * {@code GET /v1/metadata/version}: the release from the jar's manifest ("unknown" outside one);
     * the commit is not recorded, so empty.
     */
    void metadataVersion(RoutingContext ctx) {
        String version = OpsHandler.class.getPackage().getImplementationVersion();
        ApiJson.ok(ctx, new Responses.ServerVersion(version == null ? "unknown" : version, ""));
    }

    void position(RoutingContext ctx) {
        Position p = access.view().position();
        ApiJson.ok(ctx, new Responses.Position(p.offset(), p.digestHex(), p.digestVersion()));
    }

    /** A snapshot of the view under the node's data dir, for {@code quire.jar snapshot}. */
    void snapshot(RoutingContext ctx) {
        Async.reply(ctx, onWorker(status::snapshot), ApiJson::ok);
    }

    /**
     * {@code GET /admin/snapshot/archive}: a fresh snapshot as one Zstandard-compressed stream,
     * which a new node fetches with {@code --bootstrap-snapshot http://…}. Written to a temporary
     * file first (on a worker), then sent from it and deleted.
     */
    void snapshotArchive(RoutingContext ctx) {
        Async.reply(ctx, onWorker(status::snapshotArchive), (c, file) -> {
            c.response().putHeader("Content-Type", "application/vnd.quire.snapshot+zstd")
                    .putHeader("X-Quire-Snapshot-Offset", Long.toString(file.offset()))
                    .putHeader("X-Quire-Snapshot-Bytes", Long.toString(file.bytes()))
                    .putHeader("Content-Disposition", "attachment; filename=\"snapshot-" + file.offset() + ".qsnap\"")
                    .sendFile(file.path().toString())
                    .onComplete(done -> deleteQuietly(file.path()));
        });
    }

    /** Slow work of the node on a worker thread. */
    private <T> CompletableFuture<T> onWorker(java.util.concurrent.Callable<T> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, workers);
    }

    private static void deleteQuietly(java.nio.file.Path file) {
        try {
            java.nio.file.Files.deleteIfExists(file);
        } catch (java.io.IOException e) {
            // left under snapshots/: the node removes archives older than an hour before it writes the next
        }
    }

    /** A digest of every byte of the view (a full scan, on a worker): equal to a fresh rebuild's. */
    void viewDigest(RoutingContext ctx) {
        RegistryView view = access.view();
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> {
            // Scan first and read the position after: the scan covers at least that much.
            return new Responses.ViewDigest(ViewDigest.of(view.kv()));
        }, workers), ApiJson::ok);
    }
}
