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

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(OpsHandler.class);
    /** How long a snapshot send waits for a receiver that takes no data before it gives up. */
    static final long ARCHIVE_STALL_MILLIS = 120_000;

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
     * which a new node fetches with {@code --bootstrap-snapshot http://…}. The snapshot is taken on
     * a worker, then compressed by a worker as it is sent (chunked; no archive on disk), so the
     * receiver unpacks while the sender compresses. A failure midway closes the connection before
     * the archive's end mark, which the receiver refuses.
     */
    void snapshotArchive(RoutingContext ctx) {
        io.vertx.core.Context context = ctx.vertx().getOrCreateContext();
        Async.reply(ctx, onWorker(status::snapshotForArchive), (c, source) -> {
            c.response().putHeader("Content-Type", "application/vnd.quire.snapshot+zstd")
                    .putHeader("X-Quire-Snapshot-Offset", Long.toString(source.offset()))
                    .putHeader("X-Quire-Snapshot-Raw-Bytes", Long.toString(source.rawBytes()))
                    .putHeader("Content-Disposition", "attachment; filename=\"snapshot-" + source.offset() + ".qsnap\"");
            workers.execute(() -> { // a full pool refuses here, before anything is sent (429)
                ResponseStream out = new ResponseStream(c.response(), context, ARCHIVE_STALL_MILLIS);
                long t0 = System.nanoTime();
                try {
                    io.quire.node.view.snapshot.SnapshotArchive.write(source.folder(), out);
                    out.close();
                    LOG.info("snapshot archive of {} sent: {} bytes from {} in {} ms", source.folder().getFileName(),
                            out.written(), source.rawBytes(), (System.nanoTime() - t0) / 1_000_000);
                } catch (java.io.IOException | RuntimeException e) {
                    LOG.warn("snapshot archive of {} not sent after {} bytes: {}", source.folder().getFileName(),
                            out.written(), e.toString());
                    out.abort();
                }
            });
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

    /** A digest of every byte of the view (a full scan, on a worker): equal to a fresh rebuild's. */
    void viewDigest(RoutingContext ctx) {
        RegistryView view = access.view();
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> {
            // Scan first and read the position after: the scan covers at least that much.
            if ("true".equals(ctx.request().getParam("content"))) {
                return java.util.Map.of("contentDigest", ViewDigest.content(view.kv()),
                        "offset", view.position().offset().value());
            }
            return new Responses.ViewDigest(ViewDigest.of(view.kv()));
        }, workers), ApiJson::ok);
    }

    /** {@code GET /admin/region}: this node's region, the primary, and how far behind it this node is. */
    void region(RoutingContext ctx) {
        ApiJson.ok(ctx, status.regions().status(status.journalEndOffset(), System.currentTimeMillis()));
    }

    /** {@code POST /admin/promote?idGap=N}: make this region the primary ({@code quire.jar promote}). */
    void promote(RoutingContext ctx) {
        String gap = ctx.request().getParam("idGap");
        long idGap;
        try {
            idGap = gap == null ? io.quire.node.region.Regions.DEFAULT_ID_GAP : Long.parseLong(gap);
        } catch (NumberFormatException e) {
            throw io.quire.node.error.RegistryException.of(io.quire.journal.model.ErrorCode.UNPROCESSABLE,
                    "idGap must be a number");
        }
        Async.reply(ctx, status.regions().promote(idGap), ApiJson::ok);
    }

    /**
     * {@code GET /v1/principal} (Quire's): who the caller is, so that the console offers only what
     * the role may do. Open: an anonymous caller learns whether authentication is on.
     */
    void principal(RoutingContext ctx, io.quire.node.security.Authenticator authenticator) {
        io.quire.node.security.Caller p = ctx.get(AuthHandler.PRINCIPAL);
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("authentication", authenticator != null);
        out.put("authenticated", p != null);
        if (p != null) {
            out.put("name", p.name());
            out.put("role", p.role().name());
            out.put("subjectPrefixes", p.subjectPrefixes());
        }
        if (authenticator == null) {
            ApiJson.ok(ctx, out);
            return;
        }
        // the console's provider sign-in: public facts (endpoints and a public client's id), no secret
        Async.reply(ctx, authenticator.consoleSignIn().thenApply(signIn -> {
            signIn.ifPresent(s -> out.put("oidc", s));
            return out;
        }), ApiJson::ok);
    }

    /**
     * {@code GET /admin/follow}: what the registry follows (from the view, the same on every node)
     * and, on a node that runs the follower, how far it is behind the source.
     */
    void follow(RoutingContext ctx) {
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        java.util.Optional<io.quire.journal.view.FollowState> f = access.view().follow();
        out.put("following", f.map(io.quire.journal.view.FollowState::following).orElse(false));
        f.ifPresent(s -> {
            out.put("source", s.source());
            out.put("lastSourceOffset", s.lastOffset());
        });
        status.follower().ifPresent(fw -> out.put("follower", fw.status()));
        ApiJson.ok(ctx, out);
    }

    /** {@code POST /admin/follow/cutover}: see {@link NodeStatus#cutOver}. */
    void cutOver(RoutingContext ctx) {
        Async.reply(ctx, status.cutOver(), ApiJson::ok);
    }

    /** {@code GET /admin/recent}: the last minutes of applied offset, journal end and requests, for the console's chart. */
    void recent(RoutingContext ctx) {
        ApiJson.ok(ctx, java.util.Map.of("intervalSeconds", QuireMetrics.SAMPLE_SECONDS, "samples", metrics.recent()));
    }

    private static final java.net.http.HttpClient PEERS = java.net.http.HttpClient.newBuilder()
            .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(java.time.Duration.ofSeconds(2)).build();

    /**
     * {@code GET /admin/cluster}: this node's position beside every peer's ({@code --peer-nodes}),
     * each asked for {@code /admin/position} and {@code /health/ready} with the caller's own
     * {@code Authorization} header; a peer that does not answer is listed with its error.
     */
    void cluster(RoutingContext ctx) {
        String authorization = ctx.request().getHeader("Authorization");
        java.util.List<java.util.concurrent.CompletableFuture<java.util.Map<String, Object>>> peers = new java.util.ArrayList<>();
        Position p = access.view().position();
        long end = Math.max(status.journalEndOffset(), p.offset().value() + 1); // the end is refreshed every few seconds
        java.util.Map<String, Object> self = new java.util.LinkedHashMap<>();
        for (String url : status.peerNodes()) {
            peers.add(peer(url, authorization, end));
        }
        self.put("url", "(this node)");
        self.put("self", true);
        self.put("nodeId", status.nodeId());
        self.put("ready", status.ready());
        self.put("appliedOffset", p.offset().value());
        self.put("digest", p.digestHex());
        self.put("journalEnd", end);
        self.put("lag", Math.max(0, end - 1 - p.offset().value()));
        Async.reply(ctx, java.util.concurrent.CompletableFuture.allOf(peers.toArray(java.util.concurrent.CompletableFuture[]::new))
                .thenApply(v -> {
                    java.util.List<Object> nodes = new java.util.ArrayList<>();
                    nodes.add(self);
                    peers.forEach(f -> nodes.add(f.join()));
                    return java.util.Map.of("journalEnd", end, "nodes", nodes);
                }), ApiJson::ok);
    }

    private java.util.concurrent.CompletableFuture<java.util.Map<String, Object>> peer(String url, String authorization,
                                                                                      long journalEnd) {
        java.util.Map<String, Object> out = new java.util.concurrent.ConcurrentHashMap<>();
        out.put("url", url);
        out.put("self", false);
        var position = get(url + "/admin/position", authorization).thenAccept(body -> {
            out.put("appliedOffset", body.path("offset").asLong());
            out.put("digest", body.path("digest").asText());
            out.put("lag", Math.max(0, journalEnd - 1 - body.path("offset").asLong()));
        });
        var ready = get(url + "/health/ready", authorization).thenAccept(body -> {
            out.put("ready", "UP".equals(body.path("status").asText()) || "DEGRADED".equals(body.path("status").asText()));
        });
        return java.util.concurrent.CompletableFuture.allOf(position, ready).handle((v, err) -> {
            if (err != null) {
                Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                        ? err.getCause() : err;
                out.put("error", Messages.clean(String.valueOf(cause.getMessage())));
            }
            return new java.util.TreeMap<>(out);
        });
    }

    private static java.util.concurrent.CompletableFuture<com.fasterxml.jackson.databind.JsonNode> get(String url,
                                                                                                     String authorization) {
        var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).timeout(java.time.Duration.ofSeconds(3)).GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return PEERS.sendAsync(b.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray()).thenApply(r -> {
            if (r.statusCode() >= 400 && r.statusCode() != 503) {
                throw new IllegalStateException("HTTP " + r.statusCode() + " from " + url);
            }
            try {
                return ApiJson.MAPPER.readTree(r.body());
            } catch (java.io.IOException e) {
                throw new IllegalStateException("not JSON from " + url);
            }
        });
    }
}
