package io.quire.node.view;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.view.CachedPrefixesKv;
import io.quire.journal.view.Changes;
import io.quire.journal.view.RegistryView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies each journal record to the view with the pure {@link Applier} and writes the changes,
 * the outcome and the new position in one RocksDB write batch ({@code putAll}). Kafka Streams
 * re-runs this processor when it restores the global store, and replays from its last checkpoint
 * after a crash: records at or below the stored position are skipped, so the view never applies
 * a record twice nor loses one.
 */
final class ApplyProcessor implements Processor<byte[], byte[], Void, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(ApplyProcessor.class);

    private final String storeName;
    private final ApplyListener listener;
    private final boolean skipCorrupt;
    private final AtomicLong skippedCorrupt;
    private final Applier applier = new Applier();
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<Bytes, byte[]> store;
    private RegistryView view;
    private CachedPrefixesKv settings;

    ApplyProcessor(String storeName, ApplyListener listener, boolean skipCorrupt, AtomicLong skippedCorrupt) {
        this.storeName = storeName;
        this.listener = listener;
        this.skipCorrupt = skipCorrupt;
        this.skippedCorrupt = skippedCorrupt;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        this.settings = new CachedPrefixesKv(new StoreKv(store), CachedPrefixesKv.SETTINGS);
        this.view = new RegistryView(settings);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        long offset = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("journal record without metadata")).offset();
        if (offset <= view.position().offset().value()) {
            return; // replayed after a restart: already in the view, not even decoded again
        }
        Envelope envelope = null;
        ApplyResult result;
        try {
            envelope = JournalCodec.decode(record.value() == null ? new byte[0] : record.value());
            result = applier.apply(view, Offset.of(offset), envelope);
        } catch (CorruptRecordException e) {
            if (!skipCorrupt) {
                LOG.error("journal record at offset {} is unreadable; stopping. Set QUIRE_SKIP_CORRUPT_RECORDS=true "
                        + "to apply it as a rejection instead.", offset, e);
                throw e;
            }
            skippedCorrupt.incrementAndGet();
            LOG.warn("journal record at offset {} is unreadable; applied as a rejection (skip-corrupt-records is on)",
                    offset, e);
            result = applier.applyUnreadable(view, Offset.of(offset), e.getMessage());
        }
        if (result.alreadyApplied()) {
            return;
        }
        List<Changes.Entry> entries = result.changes().entries();
        store.putAll(toBatch(entries));
        settings.apply(entries);
        listener.applied(offset, envelope, result.outcome());
    }

    private static List<KeyValue<Bytes, byte[]>> toBatch(List<Changes.Entry> entries) {
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>(entries.size());
        for (Changes.Entry e : entries) {
            batch.add(KeyValue.pair(Bytes.wrap(e.key()), e.value()));
        }
        return batch;
    }
}
