package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.api.KeyRequests;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.service.EncryptionKeys;
import io.quire.node.service.VersionSpec;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /dek-registry/v1/keks…}. KEKs are not scoped by subject; a DEK is its subject's, so a
 * principal limited to subject prefixes reads and writes only the DEKs of its subjects (403).
 * Deletes and undeletes answer 204 with the journal offset.
 */
final class KeysHandler {

    /**
     * Reads of keys are not journal commands, so the audit trail cannot hold them: each one is a
     * line of this logger instead (who, which call, which key; never material).
     */
    static final Logger READS = LoggerFactory.getLogger("quire.audit.keys");

    private final EncryptionKeys keys;
    private final int maxPageSize;

    KeysHandler(EncryptionKeys keys, int maxPageSize) {
        this.keys = keys;
        this.maxPageSize = maxPageSize;
    }

    /** The KEK names ({@code offset}, {@code limit}, {@code deleted}). */
    void kekNames(RoutingContext ctx) {
        read(ctx, "listed keks", "-");
        ApiJson.ok(ctx, Paging.page(ctx, keys.kekNames(Params.flag(ctx, "deleted")), maxPageSize));
    }

    void kek(RoutingContext ctx) {
        read(ctx, "read kek", ctx.pathParam("name"));
        ApiJson.ok(ctx, keys.kek(ctx.pathParam("name"), Params.flag(ctx, "deleted")));
    }

    private static void read(RoutingContext ctx, String what, String key) {
        if (READS.isInfoEnabled()) {
            READS.info("{} {} {}", printable(Params.principal(ctx).name()), what, printable(key));
        }
    }

    /** A name as one log line can hold it: control characters (a forged line break) become '?'. */
    private static String printable(String s) {
        if (s == null) {
            return "anonymous";
        }
        StringBuilder b = new StringBuilder(Math.min(s.length(), 300));
        for (int i = 0; i < s.length() && i < 300; i++) {
            char c = s.charAt(i);
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        return b.toString();
    }

    void createKek(RoutingContext ctx) {
        KeyRequests.CreateKek body = ApiJson.body(ctx, KeyRequests.CreateKek.class);
        Async.reply(ctx, keys.createKek(body, Params.principal(ctx)), (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }

    void updateKek(RoutingContext ctx) {
        KeyRequests.UpdateKek body = ApiJson.body(ctx, KeyRequests.UpdateKek.class);
        Async.reply(ctx, keys.updateKek(ctx.pathParam("name"), body, Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }

    void deleteKek(RoutingContext ctx) {
        Async.reply(ctx, keys.deleteKek(ctx.pathParam("name"), Params.flag(ctx, "permanent"), Params.principal(ctx)),
                KeysHandler::noContent);
    }

    void undeleteKek(RoutingContext ctx) {
        Async.reply(ctx, keys.undeleteKek(ctx.pathParam("name"), Params.principal(ctx)), KeysHandler::noContent);
    }

    void dekSubjects(RoutingContext ctx) {
        read(ctx, "listed deks of kek", ctx.pathParam("name"));
        var caller = Params.caller(ctx);
        ApiJson.ok(ctx, Paging.page(ctx, keys.dekSubjects(ctx.pathParam("name"), Params.flag(ctx, "deleted")).stream()
                .filter(caller::mayTouch).toList(), maxPageSize));
    }

    void createDek(RoutingContext ctx) {
        KeyRequests.CreateDek body = ApiJson.body(ctx, KeyRequests.CreateDek.class);
        String pathSubject = ctx.pathParam("subject");
        mayTouch(ctx, pathSubject != null ? pathSubject : body.subject());
        Async.reply(ctx, keys.createDek(ctx.pathParam("name"), pathSubject, body, Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }

    /** {@code GET …/deks/{subject}}: version 1, as Confluent's registry answers it. */
    void dek(RoutingContext ctx) {
        read(ctx, "read dek", ctx.pathParam("name") + "/" + ctx.pathParam("subject"));
        ApiJson.ok(ctx, keys.dek(ctx.pathParam("name"), subject(ctx), Params.text(ctx, "algorithm"),
                VersionSpec.parse("1"), Params.flag(ctx, "deleted")));
    }

    void dekVersions(RoutingContext ctx) {
        read(ctx, "listed dek versions", ctx.pathParam("name") + "/" + ctx.pathParam("subject"));
        ApiJson.ok(ctx, keys.dekVersions(ctx.pathParam("name"), subject(ctx), Params.text(ctx, "algorithm"),
                Params.flag(ctx, "deleted")));
    }

    void dekVersion(RoutingContext ctx) {
        read(ctx, "read dek", ctx.pathParam("name") + "/" + ctx.pathParam("subject") + "/" + ctx.pathParam("version"));
        ApiJson.ok(ctx, keys.dek(ctx.pathParam("name"), subject(ctx), Params.text(ctx, "algorithm"), Params.version(ctx),
                Params.flag(ctx, "deleted")));
    }

    void deleteDek(RoutingContext ctx) {
        Async.reply(ctx, keys.deleteDek(ctx.pathParam("name"), subject(ctx), Params.text(ctx, "algorithm"),
                ctx.pathParam("version") == null ? null : Params.version(ctx), Params.flag(ctx, "permanent"),
                Params.principal(ctx)), KeysHandler::noContent);
    }

    void undeleteDek(RoutingContext ctx) {
        Async.reply(ctx, keys.undeleteDek(ctx.pathParam("name"), subject(ctx), Params.text(ctx, "algorithm"),
                ctx.pathParam("version") == null ? null : Params.version(ctx), Params.principal(ctx)),
                KeysHandler::noContent);
    }

    /** The DEK's subject from the path, which the caller must be allowed to act on. */
    private static String subject(RoutingContext ctx) {
        String s = ctx.pathParam("subject");
        mayTouch(ctx, s);
        return s;
    }

    private static void mayTouch(RoutingContext ctx, String subject) {
        var caller = Params.caller(ctx);
        if (subject != null && !caller.mayTouch(subject)) {
            throw RegistryException.of(ErrorCode.FORBIDDEN, "Forbidden: " + caller.name()
                    + " may not act on the keys of subject '" + subject + "'");
        }
    }

    private static void noContent(RoutingContext ctx, Written<Integer> w) {
        ctx.response().putHeader(ApiJson.OFFSET_HEADER, w.offset().toString()).setStatusCode(204).end();
    }
}
