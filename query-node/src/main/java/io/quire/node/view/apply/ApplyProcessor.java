package io.quire.node.view.apply;

import io.quire.node.view.store.StoreKv;
import io.quire.node.view.store.ViewStore;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.view.Keys;
import io.quire.journal.view.Changes;
import io.quire.journal.view.KvReader;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SearchIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies each journal record to the view with the pure {@link Applier} and writes the changes,
 * the outcome and the new position in one RocksDB write batch ({@code putAll}). Kafka Streams
 * re-runs this processor when it restores the global store, and replays from its last checkpoint
 * after a crash: records at or below the stored position are skipped, so the view never applies
 * a record twice nor loses one.
 */
public final class ApplyProcessor implements Processor<byte[], byte[], Void, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(ApplyProcessor.class);

    private final String storeName;
    private final ApplyListener listener;
    private final boolean skipCorrupt;
    private final AtomicLong skippedCorrupt;
    private final ApplyTimings timings;
    private final Applier applier = new Applier();
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<Bytes, byte[]> store;
    private RegistryView view;

    public ApplyProcessor(String storeName, ApplyListener listener, boolean skipCorrupt, AtomicLong skippedCorrupt,
                   ApplyTimings timings) {
        this.storeName = storeName;
        this.timings = timings;
        this.listener = listener;
        this.skipCorrupt = skipCorrupt;
        this.skippedCorrupt = skippedCorrupt;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        open(unwrapped(context.getStateStore(storeName)));
    }

    /** Starts applying into {@code store} (the view store, or any store in tests). */
    public void open(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
        // Settings reads are answered from the store's settings cache (the node's one), untimed as before.
        this.view = new RegistryView(new TimedKv(new StoreKv(store), timings));
    }

    /**
     * The view store itself rather than Streams' decorators of it: the applier is its only writer
     * and its busiest reader, and the decorators' per-call latency metrics cost more than a
     * lookup of an absent key.
     */
    @SuppressWarnings("unchecked")
    private static KeyValueStore<Bytes, byte[]> unwrapped(KeyValueStore<Bytes, byte[]> store) {
        StateStore s = store;
        while (s instanceof WrappedStateStore<?, ?, ?> w) {
            s = w.wrapped();
        }
        return s instanceof ViewStore v ? v : store;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        long offset = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("journal record without metadata")).offset();
        apply(offset, record.value());
    }

    /** Applies the journal record at {@code offset} with value {@code value} (null: unreadable). */
    public void apply(long offset, byte[] value) {
        if (offset <= view.position().offset().value()) {
            return; // replayed after a restart: already in the view, not even decoded again
        }
        long t0 = System.nanoTime();
        timings.recordStarted(t0);
        Decoded d = decode(offset, value);
        timings.add(ApplyTimings.Phase.DECODE, System.nanoTime() - t0);
        applyStarted(d);
    }

    /** A journal record decoded, or why it could not be: decoding needs nothing of the view. */
    record Decoded(long offset, Envelope envelope, CorruptRecordException unreadable) {
    }

    static Decoded decode(long offset, byte[] value) {
        try {
            return new Decoded(offset, JournalCodec.decode(value == null ? new byte[0] : value), null);
        } catch (CorruptRecordException e) {
            return new Decoded(offset, null, e);
        }
    }

    ApplyTimings timings() {
        return timings;
    }

    /** The offset of the last record in the view. */
    long position() {
        return view.position().offset().value();
    }

    /**
     * Applies a record decoded beforehand (on another thread, by the catch-up), or, when it was
     * unreadable, stops or applies it as a rejection as {@code skipCorrupt} says.
     */
    void applyDecoded(Decoded d) {
        if (d.offset() <= view.position().offset().value()) {
            return;
        }
        timings.recordStarted(System.nanoTime());
        applyStarted(d);
    }

    private void applyStarted(Decoded d) {
        Offset offset = Offset.of(d.offset());
        long t1 = System.nanoTime();
        Envelope envelope = d.envelope();
        ApplyResult result;
        long readsBefore = timings.viewReadNanos();
        if (d.unreadable() == null) {
            result = applier.apply(view, offset, envelope);
        } else {
            CorruptRecordException e = d.unreadable();
            if (!skipCorrupt) {
                LOG.error("journal record at offset {} is unreadable; stopping. Set QUIRE_SKIP_CORRUPT_RECORDS=true "
                        + "to apply it as a rejection instead.", offset, e);
                throw e;
            }
            skippedCorrupt.incrementAndGet();
            LOG.warn("journal record at offset {} is unreadable; applied as a rejection (skip-corrupt-records is on)",
                    offset, e);
            result = applier.applyUnreadable(view, offset, e.getMessage());
        }
        long t2 = System.nanoTime();
        timings.add(ApplyTimings.Phase.APPLY, Math.max(0, t2 - t1 - (timings.viewReadNanos() - readsBefore)));
        if (result.alreadyApplied()) {
            timings.recordEnded(t2);
            return;
        }
        List<Changes.Entry> derived = result.changes().derivedEntries();
        if (store instanceof ViewStore view && !derived.isEmpty()) {
            view.putAll(toBatch(result.changes().ownEntries()), derived);
        } else {
            // another store (tests): every entry alike, the index's bundles expanded
            List<Changes.Entry> all = result.changes().ownEntries();
            all.addAll(SearchIndex.expandAll(derived));
            store.putAll(toBatch(all));
        }
        long t3 = System.nanoTime();
        timings.add(ApplyTimings.Phase.STORE_WRITES, t3 - t2);
        listener.applied(offset, envelope, result.outcome());
        long t4 = System.nanoTime();
        timings.add(ApplyTimings.Phase.LISTENERS, t4 - t3);
        timings.recordEnded(t4);
    }

    /** The applier's reads of the view, timed; a settings entry is a memory read, not counted. */
    private record TimedKv(KvReader kv, ApplyTimings timings) implements KvReader {
        @Override
        public byte[] get(byte[] key) {
            if (Keys.isSetting(key)) {
                return kv.get(key);
            }
            long t = System.nanoTime();
            timings.countRead();
            try {
                return kv.get(key);
            } finally {
                timings.add(ApplyTimings.Phase.VIEW_READS, System.nanoTime() - t);
            }
        }

        @Override
        public void scan(byte[] prefix, KvVisitor visitor) {
            long t = System.nanoTime();
            timings.countScan();
            try {
                kv.scan(prefix, visitor);
            } finally {
                timings.add(ApplyTimings.Phase.VIEW_READS, System.nanoTime() - t);
            }
        }

        @Override
        public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
            long t = System.nanoTime();
            timings.countScan();
            try {
                kv.scanFrom(prefix, start, visitor);
            } finally {
                timings.add(ApplyTimings.Phase.VIEW_READS, System.nanoTime() - t);
            }
        }
    }

    private static List<KeyValue<Bytes, byte[]>> toBatch(List<Changes.Entry> entries) {
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>(entries.size());
        for (Changes.Entry e : entries) {
            batch.add(KeyValue.pair(Bytes.wrap(e.key()), e.value()));
        }
        return batch;
    }
}
