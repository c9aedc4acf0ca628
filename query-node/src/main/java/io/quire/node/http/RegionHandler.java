package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.region.Regions;
import io.vertx.ext.web.RoutingContext;
import java.util.function.LongSupplier;

/** {@code GET /admin/region} and {@code POST /admin/promote} (docs/regions.md). */
final class RegionHandler {

    private final Regions regions;
    private final LongSupplier journalEnd;

    /** {@code regions} null: a node without one (tests), which refuses both. */
    RegionHandler(Regions regions, LongSupplier journalEnd) {
        this.regions = regions;
        this.journalEnd = journalEnd;
    }

    /** This node's region, the primary, and how far behind it this node is. */
    void region(RoutingContext ctx) {
        ApiJson.ok(ctx, regions().status(journalEnd.getAsLong(), System.currentTimeMillis()));
    }

    /** {@code POST /admin/promote?idGap=N}: make this region the primary ({@code quire.jar promote}). */
    void promote(RoutingContext ctx) {
        String gap = ctx.request().getParam("idGap");
        long idGap;
        try {
            idGap = gap == null ? Regions.DEFAULT_ID_GAP : Long.parseLong(gap);
        } catch (NumberFormatException e) {
            throw RegistryException.of(ErrorCode.UNPROCESSABLE, "idGap must be a number");
        }
        Async.reply(ctx, regions().promote(idGap), ApiJson::ok);
    }

    private Regions regions() {
        if (regions == null) {
            throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED, "this node has no region");
        }
        return regions;
    }
}
