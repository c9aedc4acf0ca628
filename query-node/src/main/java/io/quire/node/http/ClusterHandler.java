package io.quire.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.client.RegistryClient;
import io.quire.journal.view.Position;
import io.quire.node.api.AdminAnswers.ClusterNode;
import io.quire.node.api.AdminAnswers.ClusterView;
import io.quire.node.service.ViewAccess;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code GET /admin/cluster}: this node's position beside every peer's ({@code --peer-nodes}),
 * each asked through the registry client for {@code /admin/position} and {@code /health/ready}
 * with the caller's own {@code Authorization} header; a peer that does not answer is listed with
 * its error.
 */
final class ClusterHandler {

    static final Duration PEER_TIMEOUT = Duration.ofSeconds(3);

    private final NodeStatus status;
    private final ViewAccess access;

    ClusterHandler(NodeStatus status, ViewAccess access) {
        this.status = status;
        this.access = access;
    }

    void cluster(RoutingContext ctx) {
        String authorization = ctx.request().getHeader("Authorization");
        Position p = access.view().position();
        long applied = p.offset().value();
        long end = Math.max(status.journalEndOffset(), applied + 1); // the end is refreshed every few seconds
        List<CompletableFuture<ClusterNode>> peers = new ArrayList<>();
        for (String url : status.peerNodes()) {
            peers.add(peer(new RegistryClient(url, authorization, PEER_TIMEOUT), end));
        }
        ClusterNode self = new ClusterNode("(this node)", true, status.nodeId(), status.ready(), applied,
                p.digestHex(), end, Math.max(0, end - 1 - applied), null);
        Async.reply(ctx, CompletableFuture.allOf(peers.toArray(CompletableFuture[]::new)).handle((v, err) -> {
            List<ClusterNode> nodes = new ArrayList<>();
            nodes.add(self);
            peers.forEach(f -> nodes.add(f.join()));
            return new ClusterView(end, nodes);
        }), ApiJson::ok);
    }

    private static CompletableFuture<ClusterNode> peer(RegistryClient peer, long journalEnd) {
        CompletableFuture<JsonNode> position = get(peer, "/admin/position");
        CompletableFuture<JsonNode> ready = get(peer, "/health/ready");
        return CompletableFuture.allOf(position, ready).handle((v, err) -> {
            if (err != null) {
                Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
                return new ClusterNode(peer.base(), false, null, null, null, null, null, null,
                        Messages.clean(String.valueOf(cause.getMessage())));
            }
            long offset = position.join().path("offset").asLong();
            String state = ready.join().path("status").asText();
            return new ClusterNode(peer.base(), false, null, "UP".equals(state) || "DEGRADED".equals(state), offset,
                    position.join().path("digest").asText(), null, Math.max(0, journalEnd - 1 - offset), null);
        });
    }

    /** A peer's JSON answer; a not-ready peer's 503 is an answer too. */
    private static CompletableFuture<JsonNode> get(RegistryClient peer, String path) {
        return peer.sendAsync("GET", path, null).thenApply(r -> {
            if (r.status() >= 400 && r.status() != 503) {
                throw new IllegalStateException("HTTP " + r.status() + " from " + peer.base() + path);
            }
            try {
                return ApiJson.MAPPER.readTree(r.body());
            } catch (IOException e) {
                throw new IllegalStateException("not JSON from " + peer.base() + path);
            }
        });
    }
}
