package io.quire.node.http;

import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import io.quire.node.api.AdminAnswers.ContentDigest;
import io.quire.node.api.Responses;
import io.quire.node.service.ViewAccess;
import io.quire.node.view.snapshot.SnapshotArchive;
import io.quire.node.view.snapshot.Snapshots;
import io.vertx.core.Context;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The view's admin endpoints: its position, its digests, and snapshots of it ({@code verify}, {@code snapshot}). */
final class ViewAdminHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ViewAdminHandler.class);
    /** How long a snapshot send waits for a receiver that takes no data before it gives up. */
    static final long ARCHIVE_STALL_MILLIS = 120_000;

    /** A snapshot folder, the journal offset it covers and the bytes of its files (before compression). */
    private record ArchiveSource(Path folder, long offset, long rawBytes) {
    }

    private final ViewAccess access;
    private final Callable<Snapshots.Taken> snapshots;
    private final Executor workers;

    /** {@code snapshots} takes a snapshot of the view under the node's data dir; slow, run on {@code workers}. */
    ViewAdminHandler(ViewAccess access, Callable<Snapshots.Taken> snapshots, Executor workers) {
        this.access = access;
        this.snapshots = snapshots;
        this.workers = workers;
    }

    /** The applied offset and the rolling digest of (offset, outcome): equal on replicas at the same offset. */
    void position(RoutingContext ctx) {
        Position p = access.view().position();
        ApiJson.ok(ctx, new Responses.Position(p.offset(), p.digestHex(), p.digestVersion()));
    }

    /** A digest of every byte of the view (a full scan, on a worker): equal to a fresh rebuild's. */
    void viewDigest(RoutingContext ctx) {
        RegistryView view = access.view();
        boolean content = "true".equals(ctx.request().getParam("content"));
        boolean withoutIndex = "false".equals(ctx.request().getParam("index")); // as a view before search
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> {
            // Scan first and read the position after: the scan covers at least that much.
            if (content) {
                return new ContentDigest(ViewDigest.content(view.kv()), view.position().offset().value());
            }
            return new Responses.ViewDigest(ViewDigest.of(view.kv(), withoutIndex));
        }, workers), ApiJson::ok);
    }

    /** A snapshot of the view under the node's data dir, for {@code quire.jar snapshot}. */
    void snapshot(RoutingContext ctx) {
        Async.reply(ctx, onWorker(snapshots), ApiJson::ok);
    }

    /**
     * {@code GET /admin/snapshot/archive}: a fresh snapshot as one Zstandard-compressed stream,
     * which a new node fetches with {@code --bootstrap-snapshot http://…}. The snapshot is taken on
     * a worker, then compressed by a worker as it is sent (chunked; no archive on disk), so the
     * receiver unpacks while the sender compresses. A failure midway closes the connection before
     * the archive's end mark, which the receiver refuses.
     */
    void snapshotArchive(RoutingContext ctx) {
        Context context = ctx.vertx().getOrCreateContext();
        Async.reply(ctx, onWorker(() -> {
            Snapshots.Taken taken = snapshots.call();
            Path folder = Path.of(taken.path());
            return new ArchiveSource(folder, taken.manifest().offset(), Snapshots.size(folder));
        }), (c, source) -> {
            Path folder = source.folder();
            long offset = source.offset();
            long rawBytes = source.rawBytes();
            c.response().putHeader("Content-Type", "application/vnd.quire.snapshot+zstd")
                    .putHeader("X-Quire-Snapshot-Offset", Long.toString(offset))
                    .putHeader("X-Quire-Snapshot-Raw-Bytes", Long.toString(rawBytes))
                    .putHeader("Content-Disposition", "attachment; filename=\"snapshot-" + offset + ".qsnap\"");
            workers.execute(() -> { // a full pool refuses here, before anything is sent (429)
                ResponseStream out = new ResponseStream(c.response(), context, ARCHIVE_STALL_MILLIS);
                long t0 = System.nanoTime();
                try {
                    SnapshotArchive.write(folder, out);
                    out.close();
                    LOG.info("snapshot archive of {} sent: {} bytes from {} in {} ms", folder.getFileName(),
                            out.written(), rawBytes, (System.nanoTime() - t0) / 1_000_000);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("snapshot archive of {} not sent after {} bytes: {}", folder.getFileName(),
                            out.written(), e.toString());
                    out.abort();
                }
            });
        });
    }

    /** Slow work of the node on a worker thread. */
    private <T> CompletableFuture<T> onWorker(Callable<T> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, workers);
    }
}
