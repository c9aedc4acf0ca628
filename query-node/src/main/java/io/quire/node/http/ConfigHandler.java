package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.LintConfig;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.Subject;
import io.quire.node.api.Responses;
import io.quire.node.error.RegistryException;
import io.quire.node.service.SettingsReads;
import io.quire.node.service.SettingsWrites;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Optional;

/** {@code /config} and {@code /mode}, global and per subject. */
final class ConfigHandler {

    /** A PUT body: any subset of the config, with the level under either of Confluent's two names. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ConfigBody(String compatibility, String compatibilityLevel, Boolean normalize, String alias,
                      Boolean validateFields, Boolean validateRules, String compatibilityGroup,
                      Metadata defaultMetadata, Metadata overrideMetadata, RuleSet defaultRuleSet,
                      RuleSet overrideRuleSet, LintConfig lint) {
        String level() {
            return compatibility != null ? compatibility : compatibilityLevel;
        }

        ConfigFields fields() {
            return new ConfigFields(alias, validateFields, validateRules, compatibilityGroup, defaultMetadata,
                    overrideMetadata, defaultRuleSet, overrideRuleSet, lint);
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
        ApiJson.ok(ctx, new Responses.Config(reads.globalLevel().name(), reads.globalNormalize().orElse(null),
                shown(reads.globalFields())));
    }

    private static ConfigFields shown(ConfigFields fields) {
        return fields.isNone() ? null : fields;
    }

    void getSubject(RoutingContext ctx) {
        boolean toGlobal = Params.flag(ctx, "defaultToGlobal");
        Subject subject = Params.subject(ctx);
        Optional<CompatibilityLevel> level = reads.subjectLevel(subject, toGlobal);
        Optional<Boolean> normalize = reads.subjectNormalize(subject, toGlobal);
        ConfigFields fields = reads.subjectFields(subject, toGlobal);
        if (level.isEmpty() && normalize.isEmpty() && fields.isNone()) {
            throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED, subject);
        }
        ApiJson.ok(ctx, new Responses.Config(level.map(Enum::name).orElse(null), normalize.orElse(null), shown(fields)));
    }

    /**
     * Any subset of the config: a field absent from the body is left as it is, a field given as
     * {@code null} is cleared.
     */
    void put(RoutingContext ctx) {
        ConfigBody body = ApiJson.body(ctx, ConfigBody.class);
        JsonNode raw = ApiJson.body(ctx, JsonNode.class);
        List<String> cleared = ConfigFields.NAMES.stream().filter(n -> raw.has(n) && raw.get(n).isNull()).toList();
        ConfigFields fields = body.fields();
        Async.reply(ctx, writes.setConfig(Params.subjectOrGlobal(ctx), body.level(), body.normalize(), fields, cleared,
                Params.principal(ctx)), (c, w) -> ApiJson.written(c, w.offset(),
                        new Responses.ConfigUpdate(w.value().name(), body.normalize(), shown(fields))));
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
