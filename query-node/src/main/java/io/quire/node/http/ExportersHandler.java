package io.quire.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.journal.command.ControlExporter;
import io.quire.journal.model.ErrorCode;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.service.Exporters;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** {@code /exporters…}, Confluent's exporters API; every write answers {@code {"name": …}}. */
final class ExportersHandler {

    private final Exporters exporters;

    ExportersHandler(Exporters exporters) {
        this.exporters = exporters;
    }

    void list(RoutingContext ctx) {
        ApiJson.ok(ctx, exporters.names());
    }

    void get(RoutingContext ctx) {
        ApiJson.ok(ctx, exporters.info(ctx.pathParam("name")));
    }

    void config(RoutingContext ctx) {
        ApiJson.ok(ctx, exporters.get(ctx.pathParam("name")).config());
    }

    void status(RoutingContext ctx) {
        ApiJson.ok(ctx, exporters.status(ctx.pathParam("name"), System.currentTimeMillis()));
    }

    void create(RoutingContext ctx) {
        Exporters.Body body = ApiJson.body(ctx, Exporters.Body.class);
        reply(ctx, exporters.create(body, Params.principal(ctx)));
    }

    void update(RoutingContext ctx) {
        Exporters.Body body = ApiJson.body(ctx, Exporters.Body.class);
        reply(ctx, exporters.update(ctx.pathParam("name"), body, Params.principal(ctx)));
    }

    /** Confluent's clients send {@code {"config": {…}}}; a bare map of settings is taken too. */
    void updateConfig(RoutingContext ctx) {
        JsonNode body = ApiJson.body(ctx, JsonNode.class);
        JsonNode map = body != null && body.has("config") ? body.get("config") : body;
        if (map == null || !map.isObject()) {
            throw RegistryException.of(ErrorCode.INVALID_EXPORTER_CONFIG, "config must be an object of strings");
        }
        Map<String, String> config = new TreeMap<>();
        map.fields().forEachRemaining(f -> {
            if (!f.getValue().isValueNode() || f.getValue().isNull()) {
                throw RegistryException.of(ErrorCode.INVALID_EXPORTER_CONFIG, "config value of " + f.getKey());
            }
            config.put(f.getKey(), f.getValue().asText());
        });
        reply(ctx, exporters.updateConfig(ctx.pathParam("name"), config, Params.principal(ctx)));
    }

    void pause(RoutingContext ctx) {
        reply(ctx, exporters.control(ctx.pathParam("name"), ControlExporter.PAUSE, Params.principal(ctx)));
    }

    void resume(RoutingContext ctx) {
        reply(ctx, exporters.control(ctx.pathParam("name"), ControlExporter.RESUME, Params.principal(ctx)));
    }

    void reset(RoutingContext ctx) {
        reply(ctx, exporters.control(ctx.pathParam("name"), ControlExporter.RESET, Params.principal(ctx)));
    }

    void delete(RoutingContext ctx) {
        reply(ctx, exporters.delete(ctx.pathParam("name"), Params.principal(ctx)));
    }

    private static void reply(RoutingContext ctx, CompletableFuture<Written<String>> w) {
        Async.reply(ctx, w, (c, written) -> ApiJson.written(c, written.offset(), Map.of("name", written.value())));
    }
}
