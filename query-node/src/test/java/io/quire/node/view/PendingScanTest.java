package io.quire.node.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

/**
 * Range, prefix and full scans over written keys with a pending group on top (puts and deletes
 * not yet in RocksDB) answer exactly what a sorted map of the same writes answers: keys in
 * unsigned order, the newest value, deleted keys gone, nothing outside the range.
 */
class PendingScanTest {

    static byte[] randomKey(Random r) {
        byte[] k = new byte[1 + r.nextInt(4)];
        k[0] = (byte) "VRSAK\u00ff\u0000".charAt(r.nextInt(7));
        for (int i = 1; i < k.length; i++) {
            k[i] = (byte) r.nextInt(4 + (i == 1 ? 252 : 0)); // high bytes too: the order is unsigned
        }
        return k;
    }

    static List<String> listed(KeyValueIterator<Bytes, byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(kv -> out.add(Arrays.toString(kv.key.get()) + "=" + Arrays.toString(kv.value)));
        }
        return out;
    }

    static List<String> listed(Map<Bytes, byte[]> model) {
        List<String> out = new ArrayList<>();
        model.forEach((k, v) -> out.add(Arrays.toString(k.get()) + "=" + Arrays.toString(v)));
        return out;
    }

    @Test
    void scansOverAPendingGroupAnswerAsASortedMap() throws Exception {
        ViewStore store = new ViewStore(JournalTopology.STORE,
                new ViewStore.GroupCommit(1_000_000, Long.MAX_VALUE, Duration.ofHours(1)), ViewStore.Tuning.DEFAULT);
        store.init(GroupCommitTest.context(Files.createTempDirectory("quire-pending-scan")), store);
        try {
            Random r = new Random(7);
            TreeMap<Bytes, byte[]> model = new TreeMap<>();
            for (int i = 0; i < 400; i++) {
                byte[] k = randomKey(r);
                byte[] v = {(byte) i};
                store.put(Bytes.wrap(k), v);
                model.put(Bytes.wrap(k), v);
            }
            store.flush(); // these are RocksDB's now
            for (int i = 0; i < 400; i++) {
                byte[] k = randomKey(r);
                if (r.nextInt(3) == 0) {
                    store.delete(Bytes.wrap(k));
                    model.remove(Bytes.wrap(k));
                } else {
                    byte[] v = {(byte) (i + 100), 1};
                    store.put(Bytes.wrap(k), v);
                    model.put(Bytes.wrap(k), v);
                }
            }
            assertEquals(listed(model), listed(store.all()));
            for (int i = 0; i < 200; i++) {
                Bytes a = Bytes.wrap(randomKey(r));
                Bytes b = Bytes.wrap(randomKey(r));
                Bytes from = a.compareTo(b) <= 0 ? a : b;
                Bytes to = a.compareTo(b) <= 0 ? b : a;
                assertEquals(listed(model.subMap(from, true, to, true)), listed(store.range(from, to)),
                        "range " + Arrays.toString(from.get()) + ".." + Arrays.toString(to.get()));
                byte[] prefix = Arrays.copyOf(a.get(), 1 + r.nextInt(Math.min(2, a.get().length)));
                TreeMap<Bytes, byte[]> withPrefix = new TreeMap<>();
                model.forEach((k, v) -> {
                    if (k.get().length >= prefix.length && Arrays.equals(k.get(), 0, prefix.length, prefix, 0, prefix.length)) {
                        withPrefix.put(k, v);
                    }
                });
                assertEquals(listed(withPrefix), listed(store.prefixScan(prefix, new ByteArraySerializer())),
                        "prefix " + Arrays.toString(prefix));
            }
        } finally {
            store.close();
        }
    }
}
