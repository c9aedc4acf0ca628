package io.quire.node.view.apply;

import io.quire.node.view.store.GroupCommit;
import io.quire.node.view.store.Tuning;
import io.quire.node.view.store.ViewStore;
import io.quire.node.view.store.ViewStoreSupplier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.Stores;

/**
 * The one topology of a query node, used by {@code main} and by the {@code TopologyTestDriver}
 * tests alike: the whole journal into one global, persistent RocksDB store. A global store is read
 * by every node in full (no consumer group, no partition assignment) and has no changelog: the
 * journal is the changelog. The store is Quire's own {@link ViewStore}. See docs/adr/0001-view-store.md.
 */
public final class JournalTopology {

    public static final String STORE = "quire-view";

    private JournalTopology() {
    }

    public static Topology build(String journalTopic, ApplyListener listener, boolean skipCorrupt,
                                 AtomicLong skippedCorrupt) {
        return build(journalTopic, listener, skipCorrupt, skippedCorrupt, GroupCommit.DEFAULT,
                Tuning.DEFAULT, store -> { }, new ApplyTimings());
    }

    /**
     * As above, with the store's group-commit bounds and RocksDB tuning, handing each view store instance Streams
     * creates to {@code created} (for snapshots) and timing the applier's phases into {@code timings}.
     */
    public static Topology build(String journalTopic, ApplyListener listener, boolean skipCorrupt,
                                 AtomicLong skippedCorrupt, GroupCommit group, Tuning tuning,
                                 Consumer<ViewStore> created,
                                 ApplyTimings timings) {
        return build(journalTopic, listener, skipCorrupt, skippedCorrupt, group, tuning, created, timings, null);
    }

    /** As above, Streams going on with {@code opened}, the store the catch-up applied into ({@link CatchUp}). */
    public static Topology build(String journalTopic, ApplyListener listener, boolean skipCorrupt,
                                 AtomicLong skippedCorrupt, GroupCommit group, Tuning tuning,
                                 Consumer<ViewStore> created,
                                 ApplyTimings timings, ViewStore opened) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addGlobalStore(
                Stores.keyValueStoreBuilder(ViewStoreSupplier.of(STORE, group, tuning, created, opened), Serdes.Bytes(), Serdes.ByteArray())
                        .withLoggingDisabled(),
                journalTopic,
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("journal"),
                () -> new ApplyProcessor(STORE, listener, skipCorrupt, skippedCorrupt, timings));
        return builder.build();
    }
}
