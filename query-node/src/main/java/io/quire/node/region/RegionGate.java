package io.quire.node.region;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegionState;
import io.quire.journal.view.RegistryView;
import java.util.function.Function;

/**
 * Whether this node's region writes. Until a promotion, the region that writes the journal is the
 * primary and a region started with {@code --journal-follow} only reads; after one, the promoted
 * region is the primary and every other region only reads, the old primary included once its
 * journal holds the fence.
 */
public final class RegionGate implements Function<RegistryView, Rejected> {

    private final String region;
    private final String follows;

    public RegionGate(String region, String follows) {
        this.region = region;
        this.follows = follows;
    }

    /** Whether this region is the primary in this view. */
    public boolean primary(RegistryView view) {
        RegionState s = RegionState.of(view);
        return s.primary() == null ? follows.isEmpty() : s.primary().equals(region);
    }

    /** The primary as this region knows it. */
    public String primaryName(RegistryView view) {
        RegionState s = RegionState.of(view);
        return s.primary() != null ? "region " + s.primary() : follows;
    }

    @Override
    public Rejected apply(RegistryView view) {
        if (primary(view)) {
            return null;
        }
        return Rejected.of(ErrorCode.OPERATION_NOT_PERMITTED, "This region (" + region + ") follows the primary "
                + primaryName(view) + " and is read-only: write to the primary (java -jar quire.jar promote makes"
                + " this region the primary if the primary is lost)");
    }
}
