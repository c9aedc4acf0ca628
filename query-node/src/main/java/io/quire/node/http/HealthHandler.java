package io.quire.node.http;

import io.quire.node.api.Responses;
import io.quire.node.metrics.QuireMetrics;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** The root, health, metrics and metadata endpoints, and the console's recent figures. */
final class HealthHandler {

    /** {@code GET /admin/recent}: the last minutes of applied offset, journal end and requests. */
    record Recent(int intervalSeconds, List<QuireMetrics.Sample> samples) {
    }

    private final NodeStatus status;
    private final QuireMetrics metrics;

    HealthHandler(NodeStatus status, QuireMetrics metrics) {
        this.status = status;
        this.metrics = metrics;
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

    /** {@code GET /v1/metadata/id}: which Kafka cluster and which registry this node belongs to. */
    void metadataId(RoutingContext ctx) {
        ApiJson.ok(ctx, Responses.ServerClusterId.of(status.kafkaClusterId(), status.registryClusterId()));
    }

    /**
     * {@code GET /v1/metadata/version}: the release from the jar's manifest ("unknown" outside one);
     * the commit is not recorded, so empty.
     */
    void metadataVersion(RoutingContext ctx) {
        String version = HealthHandler.class.getPackage().getImplementationVersion();
        ApiJson.ok(ctx, new Responses.ServerVersion(version == null ? "unknown" : version, ""));
    }

    void recent(RoutingContext ctx) {
        ApiJson.ok(ctx, new Recent(QuireMetrics.SAMPLE_SECONDS, metrics.recent()));
    }
}
