package io.quire.node.view;

import io.quire.journal.view.KvReader;
import java.util.Arrays;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
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
        return store.get(Bytes.wrap(key));
    }

    @Override
    public void scan(byte[] prefix, KvVisitor visitor) {
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

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
