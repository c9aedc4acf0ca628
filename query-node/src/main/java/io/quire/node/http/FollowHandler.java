package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.follow.ConfluentFollower;
import io.quire.node.follow.CutOver;
import io.quire.node.follow.FollowStatus;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.JournalPort;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.CompletableFuture;

/** {@code GET /admin/follow} and {@code POST /admin/follow/cutover} (docs/migrate-from-confluent.md). */
final class FollowHandler {

    private final ViewAccess access;
    private final ConfluentFollower follower;
    private final JournalPort journal;

    /** {@code follower} null: this node runs none. */
    FollowHandler(ViewAccess access, ConfluentFollower follower, JournalPort journal) {
        this.access = access;
        this.follower = follower;
        this.journal = journal;
    }

    void follow(RoutingContext ctx) {
        ApiJson.ok(ctx, FollowStatus.of(access.view().follow(), follower));
    }

    /**
     * The cut-over: stop following the source and make the registry writable, once this node's
     * follower has copied everything the source holds; refused with the reason otherwise.
     */
    void cutOver(RoutingContext ctx) {
        Async.reply(ctx, journal == null ? CompletableFuture.failedFuture(RegistryException.of(
                ErrorCode.OPERATION_NOT_PERMITTED, "this node does not follow a registry"))
                : CutOver.of(access, follower, journal), ApiJson::ok);
    }
}
