package io.quire.journal.outcome;

/** The registry follows {@code source} (or stopped following it), having dealt with its log up to {@code lastOffset}. */
public record FollowSet(String source, boolean following, long lastOffset) implements Outcome {

    @Override
    public OutcomeType type() {
        return OutcomeType.FOLLOW_SET;
    }
}
