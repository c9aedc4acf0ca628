package io.quire.node.view.store;

import io.quire.node.view.apply.JournalTopology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point reads of the view store answer what a map of the same writes answers, whichever way the
 * store answers them: settings entries from its in-memory copy (also after a reopen, and after the
 * copy outgrew its bound and was given up), other keys from the pending group, the memtable or the
 * files, absent keys included (RocksDB's {@code keyMayExist} before a read).
 */
class PointReadTest {

    /** Settings prefixes (G, C, D, N, X) and others, few enough that keys repeat, are deleted and come back. */
    static byte[] key(Random r) {
        byte[] k = new byte[2 + r.nextInt(2)];
        k[0] = (byte) "GCDNXVSRAIJ".charAt(r.nextInt(11));
        for (int i = 1; i < k.length; i++) {
            k[i] = (byte) r.nextInt(6);
        }
        return k;
    }

    static ViewStore open(Path dir) {
        ViewStore store = new ViewStore(JournalTopology.STORE,
                new GroupCommit(50, Long.MAX_VALUE, Duration.ofHours(1)), Tuning.DEFAULT);
        store.init(GroupCommitTest.context(dir), store);
        return store;
    }

    static void writeRandomly(ViewStore store, Map<Bytes, byte[]> model, Random r, int n, int valueBytes) {
        for (int i = 0; i < n; i++) {
            byte[] k = key(r);
            if (r.nextInt(4) == 0) {
                store.delete(Bytes.wrap(k));
                model.remove(Bytes.wrap(k));
            } else {
                byte[] v = new byte[1 + r.nextInt(valueBytes)];
                r.nextBytes(v);
                store.put(Bytes.wrap(k), v);
                model.put(Bytes.wrap(k), v);
            }
            if (r.nextInt(97) == 0) {
                store.flush();
            }
        }
    }

    /** Every key there can be, present or not. */
    static void readsAgree(ViewStore store, Map<Bytes, byte[]> model, String when) {
        for (byte p : "GCDNXVSRAIJ".getBytes()) {
            for (int len = 2; len <= 3; len++) {
                int combos = len == 2 ? 6 : 36;
                for (int c = 0; c < combos; c++) {
                    byte[] k = len == 2 ? new byte[] {p, (byte) c} : new byte[] {p, (byte) (c / 6), (byte) (c % 6)};
                    assertArrayEquals(model.get(Bytes.wrap(k)), store.get(Bytes.wrap(k)),
                            when + ": key " + Arrays.toString(k));
                }
            }
        }
    }

    @Test
    void pointReadsAnswerAsAMapBeforeAndAfterWritesAReopenAndTheSettingsBound(@TempDir Path dir) throws Exception {
        Random r = new Random(11);
        Map<Bytes, byte[]> model = new HashMap<>();
        ViewStore store = open(dir);
        try {
            writeRandomly(store, model, r, 3_000, 40);
            readsAgree(store, model, "pending and written");
            store.flush();
            store.flushMemtables();
            readsAgree(store, model, "all in files");
        } finally {
            store.close();
        }
        assertThrows(InvalidStateStoreException.class, () -> store.get(Bytes.wrap(new byte[] {'G', 1})),
                "a closed store answers no settings read either");
        ViewStore reopened = open(dir);
        try {
            readsAgree(reopened, model, "after a reopen");
            assertTrue(reopened.keepsSettingsInMemory());
            // Values of up to 1 MiB: the settings outgrow the in-memory bound, reads go to the store.
            writeRandomly(reopened, model, r, 400, 1 << 20);
            assertFalse(reopened.keepsSettingsInMemory());
            readsAgree(reopened, model, "past the settings bound");
            writeRandomly(reopened, model, r, 500, 40);
            readsAgree(reopened, model, "past the settings bound, small values again");
        } finally {
            reopened.close();
        }
    }

    /**
     * Keys read from compacted files of a reopened store (nothing of them in the block cache) are
     * their values. RocksJava 10.1's {@code keyMayExist} with a value holder reported every such
     * key as found in memory with an empty value (facebook/rocksdb#12921, #12935): a node
     * restarted on a compacted view read empty subject records.
     */
    @Test
    void keysInCompactedFilesOfAReopenedStoreAreReadWithTheirValues(@TempDir Path dir) throws Exception {
        Random r = new Random(12);
        Map<Bytes, byte[]> model = new HashMap<>();
        ViewStore store = open(dir);
        try {
            // ~100 MB: more than one bottom-level file (64 MiB each), so opening the store (which
            // seeks the settings prefixes) leaves the later files' index blocks out of the cache.
            for (int i = 0; i < 25_000; i++) {
                byte[] k = ("S:subject-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                byte[] v = new byte[1 + r.nextInt(8_000)];
                r.nextBytes(v);
                store.put(Bytes.wrap(k), v);
                model.put(Bytes.wrap(k), v);
            }
            store.flush();
            store.flushMemtables();
            store.compactAll();
        } finally {
            store.close();
        }
        ViewStore reopened = open(dir);
        try {
            for (Map.Entry<Bytes, byte[]> e : model.entrySet()) {
                assertArrayEquals(e.getValue(), reopened.get(e.getKey()), () -> "key " + e.getKey());
            }
            assertArrayEquals(null, reopened.get(Bytes.wrap("S:subject-absent".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        } finally {
            reopened.close();
        }
    }
}
