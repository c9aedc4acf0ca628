package io.quire.node.view.store;

import io.quire.node.view.apply.JournalTopology;

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

    /** A random key deleted (one time in {@code deleteOneIn}) or set to {@code value}, in the store and the model alike. */
    private static void putOrDelete(ViewStore store, TreeMap<Bytes, byte[]> model, Random r, int deleteOneIn, byte[] value) {
        Bytes k = Bytes.wrap(randomKey(r));
        if (r.nextInt(deleteOneIn) == 0) {
            store.delete(k);
            model.remove(k);
        } else {
            store.put(k, value);
            model.put(k, value);
        }
    }

    /** A store whose groups are written only when asked ({@code flush}). */
    private static ViewStore openStore(String folder) throws java.io.IOException {
        ViewStore store = new ViewStore(JournalTopology.STORE,
                new GroupCommit(1_000_000, Long.MAX_VALUE, Duration.ofHours(1)), Tuning.DEFAULT);
        store.init(GroupCommitTest.context(Files.createTempDirectory(folder)), store);
        return store;
    }

    @Test
    void scansOverAPendingGroupAnswerAsASortedMap() throws Exception {
        ViewStore store = openStore("quire-pending-scan");
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
                putOrDelete(store, model, r, 3, new byte[] {(byte) (i + 100), 1});
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

    private static void assertScansMatch(ViewStore store, TreeMap<Bytes, byte[]> model, Random r, int times) {
        for (int i = 0; i < times; i++) {
            Bytes a = Bytes.wrap(randomKey(r));
            Bytes b = Bytes.wrap(randomKey(r));
            Bytes from = a.compareTo(b) <= 0 ? a : b;
            Bytes to = a.compareTo(b) <= 0 ? b : a;
            assertEquals(listed(model.subMap(from, true, to, true)), listed(store.range(from, to)));
            byte[] prefix = {a.get()[0]};
            assertEquals(listed(model.subMap(Bytes.wrap(prefix), true, Bytes.wrap(new byte[] {a.get()[0], (byte) 0xff, (byte) 0xff,
                    (byte) 0xff, (byte) 0xff}), true)), listed(store.prefixScan(prefix, new ByteArraySerializer())));
        }
    }

    /**
     * A kind of key is put in order only once a scan asks for it; puts after that scan, into the
     * same group, must still be found in order by the next scan.
     */
    @Test
    void scansBetweenPutsOfOneGroupSeeEveryEarlierPut() throws Exception {
        ViewStore store = openStore("quire-pending-interleaved");
        try {
            Random r = new Random(11);
            TreeMap<Bytes, byte[]> model = new TreeMap<>();
            for (int i = 0; i < 600; i++) {
                putOrDelete(store, model, r, 4, new byte[] {(byte) i, 2});
                if (i % 25 == 0) {
                    assertScansMatch(store, model, r, 3);
                }
                if (i == 300) {
                    store.flush(); // a second group on top of a written one
                }
            }
            assertScansMatch(store, model, r, 50);
        } finally {
            store.close();
        }
    }

    /**
     * A reader scanning one kind while the applier puts keys of it: every scan is in order and
     * holds every key put before the scan began, whether the scan or a put sorted the kind first.
     */
    @Test
    void aScanDuringPutsHoldsEveryKeyPutBeforeIt() throws Exception {
        ViewStore store = openStore("quire-pending-concurrent");
        try {
            int n = 20_000;
            List<byte[]> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(("V" + Integer.toString(i * 7919 % n, 36)).getBytes());
            }
            java.util.concurrent.atomic.AtomicInteger published = new java.util.concurrent.atomic.AtomicInteger();
            Thread writer = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    store.put(Bytes.wrap(keys.get(i)), new byte[] {1});
                    published.set(i + 1);
                }
            });
            writer.start();
            int scans = 0;
            while (published.get() < n || scans < 5) {
                int before = published.get();
                List<byte[]> seen = new ArrayList<>();
                try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(new byte[] {'V'}, new ByteArraySerializer())) {
                    it.forEachRemaining(kv -> seen.add(kv.key.get()));
                }
                for (int i = 1; i < seen.size(); i++) {
                    assertEquals(true, Arrays.compareUnsigned(seen.get(i - 1), seen.get(i)) < 0, "scan out of order");
                }
                java.util.Set<Bytes> found = new java.util.HashSet<>();
                seen.forEach(k -> found.add(Bytes.wrap(k)));
                for (int i = 0; i < before; i++) {
                    assertEquals(true, found.contains(Bytes.wrap(keys.get(i))), "key " + i + " put before the scan is missing");
                }
                scans++;
            }
            writer.join();
        } finally {
            store.close();
        }
    }
}
