package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Subject;
import io.quire.node.api.Responses;
import io.quire.node.error.RegistryException;
import io.quire.node.service.SettingsReads;
import io.quire.node.service.SettingsWrites;
import io.vertx.ext.web.RoutingContext;

/** {@code /config} and {@code /mode}, global and per subject. */
final class ConfigHandler {

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ConfigBody(String compatibility, String compatibilityLevel, Boolean normalize) {
        String level() {
            return compatibility != null ? compatibility : compatibilityLevel;
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ModeBody(String mode) {
    }

    private final SettingsReads reads;
    private final SettingsWrites writes;

    ConfigHandler(SettingsReads reads, SettingsWrites writes) {
        this.reads = reads;
        this.writes = writes;
    }

    void getGlobal(RoutingContext ctx) {
        ApiJson.ok(ctx, config(reads.globalLevel().name(), reads.globalNormalize()));
    }

    void getSubject(RoutingContext ctx) {
        boolean toGlobal = Params.flag(ctx, "defaultToGlobal");
        Subject subject = Params.subject(ctx);
        java.util.Optional<CompatibilityLevel> level = reads.subjectLevel(subject, toGlobal);
        java.util.Optional<Boolean> normalize = reads.subjectNormalize(subject, toGlobal);
        if (level.isEmpty() && normalize.isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED, subject);
        }
        ApiJson.ok(ctx, config(level.map(Enum::name).orElse(null), normalize));
    }

    private static Responses.Config config(String level, java.util.Optional<Boolean> normalize) {
        return new Responses.Config(level, normalize.orElse(null));
    }

    void put(RoutingContext ctx) {
        ConfigBody body = ApiJson.body(ctx, ConfigBody.class);
        Async.reply(ctx, writes.setConfig(Params.subjectOrGlobal(ctx), body.level(), body.normalize(),
                Params.principal(ctx)), (c, w) -> ApiJson.written(c, w.offset(),
                        new Responses.ConfigUpdate(w.value().name(), body.normalize())));
    }

    void delete(RoutingContext ctx) {
        Async.reply(ctx, writes.deleteConfig(Params.subjectOrGlobal(ctx), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), new Responses.Config(w.value().name(), null)));
    }

    void getGlobalMode(RoutingContext ctx) {
        ApiJson.ok(ctx, new Responses.ModeBody(reads.globalMode().name()));
    }

    void getSubjectMode(RoutingContext ctx) {
        ApiJson.ok(ctx, new Responses.ModeBody(reads.subjectMode(Params.subject(ctx), Params.flag(ctx, "defaultToGlobal")).name()));
    }

    void putMode(RoutingContext ctx) {
        ModeBody body = ApiJson.body(ctx, ModeBody.class);
        Async.reply(ctx, writes.setMode(Params.subjectOrGlobal(ctx), body.mode(), Params.flag(ctx, "force"),
                        Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), new Responses.ModeBody(w.value().name())));
    }

    void deleteMode(RoutingContext ctx) {
        Async.reply(ctx, writes.deleteMode(Params.subjectOrGlobal(ctx), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), new Responses.ModeBody(w.value().name())));
    }
}
