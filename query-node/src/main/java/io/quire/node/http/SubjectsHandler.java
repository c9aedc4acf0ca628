package io.quire.node.http;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.Subject;
import io.quire.node.service.Deletes;
import io.quire.node.service.Registrations;
import io.quire.node.service.SubjectReads;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code /subjects…}: list, register, look up, read versions, delete. */
final class SubjectsHandler {

    private final SubjectReads reads;
    private final Registrations registrations;
    private final Deletes deletes;
    private final int maxPageSize;

    SubjectsHandler(SubjectReads reads, Registrations registrations, Deletes deletes, int maxPageSize) {
        this.reads = reads;
        this.registrations = registrations;
        this.deletes = deletes;
        this.maxPageSize = maxPageSize;
    }

    void list(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        int limit = Paging.number(ctx, "limit", -1);
        String after = Params.text(ctx, "after");
        ApiJson.ok(ctx, reads.subjects(Params.subjectPrefix(ctx), Params.flag(ctx, "deleted"),
                Params.flag(ctx, "deletedOnly"), caller::mayTouch, caller.subjectPrefixes(),
                after == null || after.isEmpty() ? null : after, Paging.offset(ctx),
                limit > maxPageSize ? maxPageSize : limit));
    }

    void register(RoutingContext ctx) {
        RegisterRequest req = ApiJson.body(ctx, RegisterRequest.class);
        Async.reply(ctx, registrations.register(Params.subject(ctx), req, Params.flag(ctx, "normalize"), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value().body()));
    }

    void lookup(RoutingContext ctx) {
        RegisterRequest req = ApiJson.body(ctx, RegisterRequest.class);
        Async.reply(ctx, registrations.lookup(Params.subject(ctx), req, Params.flag(ctx, "deleted"),
                Params.flag(ctx, "normalize")), ApiJson::ok);
    }

    void versions(RoutingContext ctx) {
        ApiJson.ok(ctx, Paging.page(ctx, reads.versions(Params.subject(ctx), Params.flag(ctx, "deleted"),
                Params.flag(ctx, "deletedOnly"), Params.flag(ctx, "deletedAsNegative")), maxPageSize));
    }

    void version(RoutingContext ctx) {
        Subject subject = Params.subject(ctx);
        Object version = reads.version(subject, Params.version(ctx), Params.flag(ctx, "deleted"),
                ctx.queryParams().get("format"));
        if (Params.qualifiedReferences(ctx)) {
            ApiJson.okBytes(ctx, ApiJson.qualifiedReferences(ApiJson.bytes(version), subject.context()));
            return;
        }
        ApiJson.ok(ctx, version);
    }

    void latestWithMetadata(RoutingContext ctx) {
        List<String> keys = ctx.queryParams().getAll("key");
        List<String> values = ctx.queryParams().getAll("value");
        Map<String, String> wanted = new HashMap<>();
        for (int i = 0; i < Math.min(keys.size(), values.size()); i++) {
            wanted.put(keys.get(i), values.get(i));
        }
        ApiJson.ok(ctx, reads.latestWithMetadata(Params.subject(ctx), wanted, Params.flag(ctx, "deleted"),
                ctx.queryParams().get("format")));
    }

    void versionSchema(RoutingContext ctx) {
        String schema = reads.version(Params.subject(ctx), Params.version(ctx), Params.flag(ctx, "deleted")).schema();
        ctx.response().putHeader("Content-Type", ApiJson.CONTENT_TYPE).end(schema);
    }

    void referencedBy(RoutingContext ctx) {
        ApiJson.ok(ctx, reads.referencedBy(Params.subject(ctx), Params.version(ctx), Params.flag(ctx, "deleted")));
    }

    void deleteSubject(RoutingContext ctx) {
        Async.reply(ctx, deletes.deleteSubject(Params.subject(ctx), Params.flag(ctx, "permanent"), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }

    void deleteVersion(RoutingContext ctx) {
        Async.reply(ctx, deletes.deleteVersion(Params.subject(ctx), Params.version(ctx), Params.flag(ctx, "permanent"),
                Params.principal(ctx)), (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }
}
