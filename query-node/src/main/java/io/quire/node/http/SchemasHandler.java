package io.quire.node.http;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
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
        ApiJson.ok(ctx, reads.schemas(Params.subjectPrefix(ctx), Params.flag(ctx, "deleted"),
                Params.flag(ctx, "latestOnly"), offset, limit < 0 || limit > maxPageSize ? maxPageSize : limit,
                caller::mayTouch, caller.subjectPrefixes()));
    }

    /** The context the request reads the id in (its {@code subject} parameter, see {@link SchemaReads#contextOf}). */
    private Context context(RoutingContext ctx, SchemaId id) {
        return reads.contextOf(id, Params.subjectParam(ctx));
    }

    void byId(RoutingContext ctx) {
        String format = ctx.queryParams().get("format");
        boolean maxId = Params.flag(ctx, "fetchMaxId");
        boolean qualified = Params.qualifiedReferences(ctx);
        SchemaId id = Params.id(ctx);
        Context context = context(ctx, id);
        if ((format == null || format.isEmpty()) && !maxId && !qualified) {
            ApiJson.okBytes(ctx, reads.schemaBody(context, id)); // the hot path: the prepared body
            return;
        }
        byte[] body = reads.inFormat(context, reads.schema(context, id), format).encode();
        if (qualified) {
            body = ApiJson.qualifiedReferences(body, context);
        }
        if (maxId) {
            ApiJson.ok(ctx, ApiJson.withField(body, "maxId", reads.maxId()));
            return;
        }
        ApiJson.okBytes(ctx, body);
    }

    void byGuid(RoutingContext ctx) {
        var found = reads.idOfGuid(ctx.pathParam("guid"));
        byte[] body = reads.inFormat(found.context(), reads.schema(found.context(), found.id()),
                ctx.queryParams().get("format")).encode();
        ApiJson.okBytes(ctx, Params.qualifiedReferences(ctx) ? ApiJson.qualifiedReferences(body, found.context()) : body);
    }

    void idsOfGuid(RoutingContext ctx) {
        ApiJson.ok(ctx, reads.idsOfGuid(ctx.pathParam("guid")));
    }

    void rawById(RoutingContext ctx) {
        SchemaId id = Params.id(ctx);
        ctx.response().putHeader("Content-Type", ApiJson.CONTENT_TYPE).end(reads.schema(context(ctx, id), id).schema());
    }

    void subjectsOfId(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        SchemaId id = Params.id(ctx);
        ApiJson.ok(ctx, reads.subjectsOfId(context(ctx, id), id, Params.flag(ctx, "deleted")).stream()
                .filter(caller::mayTouch).toList());
    }

    void versionsOfId(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        SchemaId id = Params.id(ctx);
        ApiJson.ok(ctx, reads.versionsOfId(context(ctx, id), id, Params.flag(ctx, "deleted")).stream()
                .filter(v -> caller.mayTouch(v.subject())).toList());
    }

    void types(RoutingContext ctx) {
        ApiJson.ok(ctx, List.of(SchemaType.JSON.name(), SchemaType.PROTOBUF.name(), SchemaType.AVRO.name()));
    }
}
