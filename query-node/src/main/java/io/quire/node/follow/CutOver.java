package io.quire.node.follow;

import io.quire.journal.command.SetFollow;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.FollowSet;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.FollowState;
import io.quire.node.api.AdminAnswers.CutOverDone;
import io.quire.node.error.RegistryException;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.JournalPort;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Ending a follow: {@code POST /admin/follow/cutover}, which {@code quire.jar cutover} calls once caught up. */
public final class CutOver {

    private CutOver() {
    }

    /**
     * The cut-over, asked of a node: it must run the follower of what the registry follows, caught
     * up; then the end of following is journaled and every node takes writes again.
     */
    public static CompletableFuture<CutOverDone> of(ViewAccess access, ConfluentFollower follower, JournalPort journal) {
        Optional<FollowState> f = access.view().follow();
        if (f.isEmpty() || !f.get().following()) {
            return CompletableFuture.failedFuture(notPermitted("this registry does not follow a registry"));
        }
        FollowStatus.Follower st = follower == null ? null : follower.status();
        if (st == null || !st.source().equals(f.get().source())) {
            return CompletableFuture.failedFuture(notPermitted("this node does not run the follower of "
                    + f.get().source() + ": ask the node started with --follow-confluent"));
        }
        if (st.state() != FollowStatus.State.FOLLOWING || st.lagRecords() != 0) {
            return CompletableFuture.failedFuture(notPermitted("not caught up with " + st.source() + " yet ("
                    + st.state() + ", " + st.lagRecords() + " records behind): set the source READONLY and try again"));
        }
        return journal.submit(new SetFollow(f.get().source(), false, -1), Principal.of("cutover")).thenApply(a -> {
            if (a.outcome() instanceof Rejected r) {
                throw new RegistryException(r.error(), r.message());
            }
            return new CutOverDone(true, f.get().source(), ((FollowSet) a.outcome()).lastOffset(), a.offset().value());
        });
    }

    private static RegistryException notPermitted(String why) {
        return RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED, why);
    }

}
