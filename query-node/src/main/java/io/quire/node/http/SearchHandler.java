package io.quire.node.http;

import io.quire.node.service.Search;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * {@code GET /search} and {@code GET /search/impact} (Quire's extension, docs/search.md), and the
 * {@code ?tags=} filters of {@code GET /subjects} and {@code GET /schemas}. The work runs on the
 * node's scan pool, off the event loop.
 */
final class SearchHandler {

    static final int DEFAULT_LIMIT = 100;

    private final Search search;
    private final Executor workers;
    private final int maxPageSize;

    SearchHandler(Search search, Executor workers, int maxPageSize) {
        this.search = search;
        this.workers = workers;
        this.maxPageSize = maxPageSize;
    }

    void search(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        Search.Filters filters = new Search.Filters(values(ctx, "kind"), values(ctx, "tag"),
                Params.text(ctx, "schemaType"), Params.subjectPrefix(ctx), Params.text(ctx, "context"),
                Params.flag(ctx, "latestOnly"), Params.flag(ctx, "deleted"));
        String q = Params.text(ctx, "q");
        int offset = Paging.offset(ctx);
        int limit = limit(ctx);
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> search.search(q, filters, caller::mayTouch, offset, limit),
                workers), ApiJson::ok);
    }

    void impact(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        String record = Params.text(ctx, "record");
        String field = Params.text(ctx, "field");
        boolean deleted = Params.flag(ctx, "deleted");
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> search.impact(record, field, deleted, caller::mayTouch),
                workers), ApiJson::ok);
    }

    /** A list's handler: {@code tagged} when the request filters by tag ({@code ?tags=PII} or {@code ?tags=PII,GDPR}: any of them), else {@code plain}. */
    static Handler<RoutingContext> byTagsOr(Handler<RoutingContext> tagged, Handler<RoutingContext> plain) {
        return ctx -> (values(ctx, "tags").isEmpty() ? plain : tagged).handle(ctx);
    }

    void taggedSubjects(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        List<String> tags = values(ctx, "tags");
        String prefix = Params.subjectPrefix(ctx);
        int offset = Paging.offset(ctx);
        int limit = Paging.number(ctx, "limit", -1);
        int bounded = limit > maxPageSize ? maxPageSize : limit;
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> search.taggedSubjects(tags, prefix, caller::mayTouch,
                offset, bounded), workers), ApiJson::ok);
    }

    void taggedSchemas(RoutingContext ctx) {
        var caller = Params.caller(ctx);
        List<String> tags = values(ctx, "tags");
        String prefix = Params.subjectPrefix(ctx);
        boolean deleted = Params.flag(ctx, "deleted");
        boolean latestOnly = Params.flag(ctx, "latestOnly");
        int offset = Paging.offset(ctx);
        int limit = Paging.number(ctx, "limit", -1);
        int bounded = limit < 0 || limit > maxPageSize ? maxPageSize : limit;
        Async.reply(ctx, CompletableFuture.supplyAsync(() -> search.taggedSchemas(tags, prefix, deleted, latestOnly,
                caller::mayTouch, offset, bounded), workers), ApiJson::ok);
    }

    private int limit(RoutingContext ctx) {
        int limit = Paging.number(ctx, "limit", DEFAULT_LIMIT);
        return limit < 0 || limit > maxPageSize ? maxPageSize : limit == 0 ? DEFAULT_LIMIT : limit;
    }

    /** A parameter given several times or as a comma-separated list, blanks dropped. */
    static List<String> values(RoutingContext ctx, String name) {
        List<String> out = new ArrayList<>();
        for (String v : ctx.queryParams().getAll(name)) {
            for (String part : v.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.strip());
                }
            }
        }
        return out;
    }
}
