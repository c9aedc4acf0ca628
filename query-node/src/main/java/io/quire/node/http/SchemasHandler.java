package io.quire.node.http;

import io.quire.journal.model.SchemaType;
import io.quire.node.service.SchemaReads;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** {@code /schemas…}: resolve by id (the hot path), the id's subjects and versions, the types. */
final class SchemasHandler {

    private final SchemaReads reads;

    private final int maxPageSize;

    SchemasHandler(SchemaReads reads, int maxPageSize) {
        this.reads = reads;
        this.maxPageSize = maxPageSize;
    }

    /** {@code GET /schemas}; without {@code limit} at most the configured page size. */
    void list(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        int offset = Paging.offset(ctx);
        int limit = Paging.number(ctx, "limit", -1);
        ApiJson.ok(ctx, reads.schemas(Params.text(ctx, "subjectPrefix"), Params.flag(ctx, "deleted"),
                Params.flag(ctx, "latestOnly"), offset, limit < 0 || limit > maxPageSize ? maxPageSize : limit,
                caller::mayTouch));
    }

    void byId(RoutingContext ctx) {
        String format = ctx.queryParams().get("format");
        boolean maxId = Params.flag(ctx, "fetchMaxId");
        if ((format == null || format.isEmpty()) && !maxId) {
            ApiJson.okBytes(ctx, reads.schemaBody(Params.id(ctx))); // the hot path: the prepared body
            return;
        }
        byte[] body = reads.inFormat(reads.schema(Params.id(ctx)), format).encode();
        if (maxId) {
            ApiJson.ok(ctx, ApiJson.withField(body, "maxId", reads.maxId()));
            return;
        }
        ApiJson.okBytes(ctx, body);
    }

    void byGuid(RoutingContext ctx) {
        ApiJson.okBytes(ctx, reads.inFormat(reads.schemaByGuid(ctx.pathParam("guid")), ctx.queryParams().get("format"))
                .encode());
    }

    void idsOfGuid(RoutingContext ctx) {
        ApiJson.ok(ctx, reads.idsOfGuid(ctx.pathParam("guid")));
    }

    void rawById(RoutingContext ctx) {
        ctx.response().putHeader("Content-Type", ApiJson.CONTENT_TYPE).end(reads.schema(Params.id(ctx)).schema());
    }

    void subjectsOfId(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        ApiJson.ok(ctx, reads.subjectsOfId(Params.id(ctx), Params.flag(ctx, "deleted")).stream()
                .filter(caller::mayTouch).toList());
    }

    void versionsOfId(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        ApiJson.ok(ctx, reads.versionsOfId(Params.id(ctx), Params.flag(ctx, "deleted")).stream()
                .filter(v -> caller.mayTouch(v.subject())).toList());
    }

    void types(RoutingContext ctx) {
        ApiJson.ok(ctx, List.of(SchemaType.JSON.name(), SchemaType.PROTOBUF.name(), SchemaType.AVRO.name()));
    }
}
