package io.quire.node.view.store;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.view.KvReader;
import io.quire.node.error.RegistryException;
import java.util.Arrays;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The journal's {@link KvReader} port over a Kafka Streams (RocksDB) key-value store. */
public final class StoreKv implements KvReader {

    private static final BytesSerializer PREFIX = new BytesSerializer();

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;

    public StoreKv(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            settleFor(key);
            return store.get(Bytes.wrap(key));
        } catch (InvalidStateStoreException e) {
            throw closing();
        }
    }

    /** A read racing the node's shutdown or a restart of its view: 503, retry elsewhere or later. */
    private static RegistryException closing() {
        return RegistryException.retryLater(ErrorCode.NOT_READY, 1, "the view is closed (the node is stopping)");
    }

    @Override
    public long writesUnder(byte prefix) {
        return store instanceof ViewStore v ? v.writesUnder(prefix) : -1;
    }

    @Override
    public void scan(byte[] prefix, KvVisitor visitor) {
        try {
            settleFor(prefix);
            scanOpen(prefix, visitor);
        } catch (InvalidStateStoreException e) {
            throw closing();
        }
    }

    @Override
    public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
        settleFor(prefix);
        try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap(start), null)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (!startsWith(key, prefix) || !visitor.visit(key, kv.value)) {
                    return;
                }
            }
        } catch (InvalidStateStoreException e) {
            throw closing();
        }
    }

    private void scanOpen(byte[] prefix, KvVisitor visitor) {
        try (KeyValueIterator<Bytes, byte[]> it = prefix.length == 0 ? store.all()
                : store.prefixScan(Bytes.wrap(prefix), PREFIX)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (!startsWith(key, prefix)) {
                    return;
                }
                if (!visitor.visit(key, kv.value)) {
                    return;
                }
            }
        }
    }

    /**
     * Before a read that may reach the search index ({@code Q}, {@code q}, or everything, as a
     * digest does): the store's pending groups written, since the index's entries are read from
     * RocksDB only (docs/adr/0018). While the index still lacks bundles a catch-up kept, a search
     * is answered 503 at once, and a read of everything waits for them (a digest compares whole
     * views). Nothing else is held up: no other read comes here.
     */
    private void settleFor(byte[] keyOrPrefix) {
        if (store instanceof ViewStore v && (keyOrPrefix.length == 0 || keyOrPrefix[0] == 'Q' || keyOrPrefix[0] == 'q')) {
            boolean complete;
            try {
                complete = v.settle(keyOrPrefix.length == 0 ? WHOLE_VIEW_WAIT_MS : 0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                complete = false;
            }
            if (!complete) {
                throw RegistryException.retryLater(ErrorCode.NOT_READY, 2,
                        "the search index is still filing what the view's catch-up applied");
            }
        }
    }

    /** How long a read of the whole view waits for the search index to be complete. */
    private static final long WHOLE_VIEW_WAIT_MS = 120_000;

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
