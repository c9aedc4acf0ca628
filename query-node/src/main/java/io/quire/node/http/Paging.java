package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** {@code offset} and {@code limit} on list endpoints; {@code limit} -1 or absent means all. */
final class Paging {

    private Paging() {
    }

    static <T> List<T> page(RoutingContext ctx, List<T> all, int maxPageSize) {
        int offset = offset(ctx);
        int limit = number(ctx, "limit", -1);
        if (limit > maxPageSize) {
            limit = maxPageSize;
        }
        if (offset >= all.size()) {
            return List.of();
        }
        int end = limit < 0 ? all.size() : (int) Math.min(all.size(), (long) offset + limit);
        return all.subList(offset, end);
    }

    /** The {@code offset} parameter: 0 when absent, never negative. */
    static int offset(RoutingContext ctx) {
        int offset = number(ctx, "offset", 0);
        if (offset < 0) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "offset must not be negative");
        }
        return offset;
    }

    static int number(RoutingContext ctx, String name, int dflt) {
        String text = ctx.queryParams().get(name);
        if (text == null || text.isEmpty()) {
            return dflt;
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, name + " must be a number");
        }
    }
}
