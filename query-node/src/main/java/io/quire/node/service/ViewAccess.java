package io.quire.node.service;

import io.quire.journal.apply.Applier;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.node.error.RegistryException;
import java.util.function.Function;

/** The node's view once Kafka Streams serves it; before that, every read is refused as not ready. */
public final class ViewAccess {

    private volatile RegistryView view;
    private volatile Function<RegistryView, Rejected> regionGate = v -> null;

    /** Who may write here besides the applier's rules: a follower region refuses every client write. */
    public void gateWrites(Function<RegistryView, Rejected> gate) {
        this.regionGate = gate;
    }

    /**
     * Why no client write is taken on this node now (the registry follows another registry, or this
     * region is not the primary); null when writes are taken.
     */
    public Rejected refusedWrite(RegistryView v) {
        Rejected r = Applier.whileFollowing(v);
        return r != null ? r : regionGate.apply(v);
    }

    public void open(RegistryView view) {
        this.view = view;
    }

    public void close() {
        this.view = null;
    }

    public boolean isOpen() {
        return view != null;
    }

    public RegistryView view() {
        RegistryView v = view;
        if (v == null) {
            throw RegistryException.of(ErrorCode.NOT_READY, "the view is still being restored from the journal");
        }
        return v;
    }
}
