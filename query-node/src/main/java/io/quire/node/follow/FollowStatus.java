package io.quire.node.follow;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.view.FollowState;
import java.util.Optional;

/**
 * {@code GET /admin/follow}: what the registry follows (from the view, the same on every node) and,
 * on the node that runs the follower, how far it is behind the source.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FollowStatus(boolean following, String source, Long lastSourceOffset, Follower follower) {

    /** Where a node's follower is. */
    public enum State { STARTING, FOLLOWING, STOPPED, CUT_OVER }

    /** What {@code GET /admin/follow} shows of this node's follower. */
    public record Follower(String source, State state, long nextOffset, long sourceEnd, long lagRecords,
                           double lagSeconds, long recordsCopied, long recordsSkipped, String lastError) {
    }

    public static FollowStatus of(Optional<FollowState> state, ConfluentFollower follower) {
        return new FollowStatus(state.map(FollowState::following).orElse(false),
                state.map(FollowState::source).orElse(null), state.map(FollowState::lastOffset).orElse(null),
                follower == null ? null : follower.status());
    }
}
