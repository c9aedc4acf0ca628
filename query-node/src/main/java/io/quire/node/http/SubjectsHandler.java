package io.quire.node.http;

import io.quire.node.api.RegisterRequest;
import io.quire.node.service.RegistryReads;
import io.quire.node.service.RegistryWrites;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;

/** {@code /subjects…}: list, register, look up, read versions, delete. */
final class SubjectsHandler {

    private final RegistryReads reads;
    private final RegistryWrites writes;
    private final int maxPageSize;

    SubjectsHandler(RegistryReads reads, RegistryWrites writes, int maxPageSize) {
        this.reads = reads;
        this.writes = writes;
        this.maxPageSize = maxPageSize;
    }

    void list(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        ApiJson.ok(ctx, Paging.page(ctx, reads.subjects(Params.text(ctx, "subjectPrefix"), Params.flag(ctx, "deleted"),
                Params.flag(ctx, "deletedOnly")).stream().filter(caller::mayTouch).toList(), maxPageSize));
    }

    void register(RoutingContext ctx) {
        RegisterRequest req = ApiJson.body(ctx, RegisterRequest.class);
        Async.reply(ctx, writes.register(Params.subject(ctx), req, Params.flag(ctx, "normalize"), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), Map.of("id", w.value())));
    }

    void lookup(RoutingContext ctx) {
        RegisterRequest req = ApiJson.body(ctx, RegisterRequest.class);
        Async.reply(ctx, writes.lookup(Params.subject(ctx), req, Params.flag(ctx, "deleted"),
                Params.flag(ctx, "normalize")), ApiJson::ok);
    }

    void versions(RoutingContext ctx) {
        ApiJson.ok(ctx, Paging.page(ctx, reads.versions(Params.subject(ctx), Params.flag(ctx, "deleted"),
                Params.flag(ctx, "deletedOnly")), maxPageSize));
    }

    void version(RoutingContext ctx) {
        ApiJson.ok(ctx, reads.version(Params.subject(ctx), Params.version(ctx), Params.flag(ctx, "deleted"),
                ctx.queryParams().get("format")));
    }

    void versionSchema(RoutingContext ctx) {
        String schema = reads.version(Params.subject(ctx), Params.version(ctx), Params.flag(ctx, "deleted")).schema();
        ctx.response().putHeader("Content-Type", ApiJson.CONTENT_TYPE).end(schema);
    }

    void referencedBy(RoutingContext ctx) {
        ApiJson.ok(ctx, reads.referencedBy(Params.subject(ctx), Params.version(ctx)));
    }

    void deleteSubject(RoutingContext ctx) {
        Async.reply(ctx, writes.deleteSubject(Params.subject(ctx), Params.flag(ctx, "permanent"), Params.principal(ctx)),
                (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }

    void deleteVersion(RoutingContext ctx) {
        Async.reply(ctx, writes.deleteVersion(Params.subject(ctx), Params.version(ctx), Params.flag(ctx, "permanent"),
                Params.principal(ctx)), (c, w) -> ApiJson.written(c, w.offset(), w.value()));
    }
}
