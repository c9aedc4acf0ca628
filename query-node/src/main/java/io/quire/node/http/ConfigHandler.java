package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.node.service.RegistryReads;
import io.quire.node.service.RegistryWrites;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;

/** {@code /config} and {@code /mode}, global and per subject. */
final class ConfigHandler {

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ConfigBody(String compatibility, String compatibilityLevel) {
        String level() {
            return compatibility != null ? compatibility : compatibilityLevel;
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ModeBody(String mode) {
    }

    private final RegistryReads reads;
    private final RegistryWrites writes;

    ConfigHandler(RegistryReads reads, RegistryWrites writes) {
        this.reads = reads;
        this.writes = writes;
    }

    void getGlobal(RoutingContext ctx) {
        ApiJson.ok(ctx, Map.of("compatibilityLevel", reads.globalLevel().name()));
    }

    void getSubject(RoutingContext ctx) {
        ApiJson.ok(ctx, Map.of("compatibilityLevel",
                reads.subjectLevel(Params.subject(ctx), Params.flag(ctx, "defaultToGlobal")).name()));
    }

    void put(RoutingContext ctx) {
        ConfigBody body = ApiJson.body(ctx, ConfigBody.class);
        Async.reply(ctx, writes.setConfig(ctx.pathParam("subject"), body.level(), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), Map.of("compatibility", w.value().name())));
    }

    void delete(RoutingContext ctx) {
        Async.reply(ctx, writes.deleteConfig(ctx.pathParam("subject"), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), Map.of("compatibilityLevel", w.value().name())));
    }

    void getGlobalMode(RoutingContext ctx) {
        ApiJson.ok(ctx, Map.of("mode", reads.globalMode().name()));
    }

    void getSubjectMode(RoutingContext ctx) {
        ApiJson.ok(ctx, Map.of("mode", reads.subjectMode(Params.subject(ctx), Params.flag(ctx, "defaultToGlobal")).name()));
    }

    void putMode(RoutingContext ctx) {
        ModeBody body = ApiJson.body(ctx, ModeBody.class);
        Async.reply(ctx, writes.setMode(ctx.pathParam("subject"), body.mode(), Params.flag(ctx, "force"),
                        Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), Map.of("mode", w.value().name())));
    }

    void deleteMode(RoutingContext ctx) {
        Async.reply(ctx, writes.deleteMode(ctx.pathParam("subject"), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), Map.of("mode", w.value().name())));
    }
}
