package io.quire.node.view.store;

import io.quire.journal.view.Changes;
import io.quire.journal.view.SearchIndex;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the view store files the search index's bundles ({@link SearchIndex#BUNDLE}, one per new
 * content or subject) (docs/adr/0018-search-index.md, "Filed later after a replay").
 *
 * <ul>
 *   <li><b>Serving:</b> each bundle is expanded into its lists and dictionary keys in the
 *       command's group, so a search right after a registration finds it.</li>
 *   <li><b>Deferred:</b> from the start of a catch-up, each bundle is kept as it came under
 *       {@code O sequence}, one key, and the catch-up does not pay for the index. Once the store
 *       serves (logged again), a thread of its own expands the kept bundles in journal order, in
 *       batches of {@link #BATCH}: each batch's lists and dictionary keys and the deletes of its
 *       bundles are one atomic write, so a crash leaves either the bundles or what they filed.
 *       When none is left it hands back to serving under the group lock. Until then a search
 *       answers 503 (the index is incomplete), and every other read is unaffected.</li>
 * </ul>
 *
 * Both ways append a content's entries to its lists in journal order, so the index's bytes are the
 * same whichever way a node filed it (DeferredIndexTest).
 */
final class SearchFiling {

    private static final Logger LOG = LoggerFactory.getLogger(SearchFiling.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Bundles expanded per write. */
    static final int BATCH = 20_000;

    private final Object lock;
    private final DictionaryKeys dictionary = new DictionaryKeys();
    /** Whether bundles are kept rather than expanded; guarded by {@link #lock}, read by any thread. */
    private volatile boolean deferring;
    /** The sequence of the next bundle kept; guarded by {@link #lock}. */
    private long nextSeq;
    /** The sequence of the last bundle filed by the filing thread (that thread only, then under the lock). */
    private long filedThrough = -1;
    private volatile boolean closing;
    private Thread filer;
    /** Bundles per write ({@link #BATCH}; smaller in the store's tests, to file in several). */
    private int batch = BATCH;

    SearchFiling(Object groupLock) {
        this.lock = groupLock;
    }

    void batch(int bundles) {
        batch = bundles;
    }

    /** Reads the bundles a store holds when it opens: with any, the index waits for them ({@link #startFiling}). */
    void open(ViewRocks rocks) {
        try (RocksIterator it = rocks.db().newIterator()) {
            it.seek(new byte[] {SearchIndex.BUNDLE});
            if (!isKept(it)) {
                return;
            }
            long first = sequence(it.key());
            it.seekForPrev(key(Long.MAX_VALUE));
            synchronized (lock) {
                deferring = true;
                filedThrough = first - 1;
                nextSeq = sequence(it.key()) + 1;
            }
        }
    }

    /** From now on bundles are kept (a catch-up starts); filed once the store serves ({@link #startFiling}). */
    void defer() {
        synchronized (lock) {
            if (!deferring) {
                deferring = true;
                filedThrough = nextSeq - 1;
            }
        }
    }

    /** Commands whose bundles are kept and not filed yet. */
    long kept() {
        synchronized (lock) {
            return deferring ? nextSeq - 1 - filedThrough : 0;
        }
    }

    /**
     * A command's derived entries for its group (the applying thread, under the group lock): its
     * bundles expanded, or, while deferring, kept together under one key (a new subject's first
     * version has two: its content's and its name's), each after its length.
     */
    List<Changes.Entry> entries(List<Changes.Entry> bundles) {
        if (deferring) {
            int length = 0;
            for (Changes.Entry e : bundles) {
                length += 4 + e.value().length;
            }
            ByteBuffer kept = ByteBuffer.allocate(length);
            for (Changes.Entry e : bundles) {
                kept.putInt(e.value().length).put(e.value());
            }
            return List.of(new Changes.Entry(key(nextSeq++), kept.array()));
        }
        List<Changes.Entry> out = new ArrayList<>(bundles.size() * 24);
        for (Changes.Entry e : bundles) {
            SearchIndex.expand(e.value(), dictionary, (k, v) -> out.add(new Changes.Entry(k, v)));
        }
        return out;
    }

    /** The bundles kept under one key, expanded in order. */
    private void expandKept(byte[] kept, SearchIndex.Sink out) {
        ByteBuffer b = ByteBuffer.wrap(kept);
        while (b.hasRemaining()) {
            byte[] bundle = new byte[b.getInt()];
            b.get(bundle);
            SearchIndex.expand(bundle, dictionary, out);
        }
    }

    /**
     * Starts the thread that files the kept bundles, when there are any and it is not running: only
     * once the store writes with its log again, so no batch of it can outlive (after a crash) the
     * unlogged groups that kept its bundles.
     */
    void startFiling(GroupWriter groups, ViewRocks rocks, OpenGuard guard) {
        synchronized (lock) {
            if (!deferring || filer != null || !rocks.logged()) {
                return;
            }
            filer = new Thread(() -> file(groups, rocks, guard), "quire-search-filing");
            filer.setDaemon(true);
            filer.start();
        }
    }

    /** Stops the filing thread (the store closes); kept bundles stay for the next start. */
    void close() {
        closing = true;
        Thread t;
        synchronized (lock) {
            t = filer;
        }
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits up to {@code millis} for the kept bundles to be filed; whether they were. */
    boolean awaitComplete(long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        while (deferring && System.currentTimeMillis() < end) {
            Thread.sleep(20);
        }
        return !deferring;
    }

    private void file(GroupWriter groups, ViewRocks rocks, OpenGuard guard) {
        long t0 = System.nanoTime();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long bundles = 0;
        try {
            while (!closing) {
                groups.writePending(); // the bundles kept so far into RocksDB, where this reads them
                guard.enter();
                int n;
                try {
                    n = fileBatch(rocks);
                } finally {
                    guard.leave();
                }
                bundles += n;
                if (n == 0) {
                    synchronized (lock) {
                        if (filedThrough + 1 == nextSeq) { // none kept since: hand back to serving
                            deferring = false;
                            filer = null;
                            break;
                        }
                    }
                }
            }
            if (!deferring) {
                dropDeletedBundles(rocks, guard);
            }
        } catch (InvalidStateStoreException closed) {
            return;
        } catch (RuntimeException e) {
            LOG.error("filing the search index's kept bundles failed; search stays unavailable until a restart", e);
            return;
        }
        if (!deferring) {
            LOG.info("search index complete: the terms the catch-up kept for {} commands filed in {} ms (CPU {} ms)", bundles,
                    (System.nanoTime() - t0) / 1_000_000, (THREADS.getCurrentThreadCpuTime() - cpu0) / 1_000_000);
        }
    }

    /**
     * Compacts the range of the bundles filed, so their bytes and their deletes leave the view now:
     * left to RocksDB, the deletes sit in upper levels over the bundles in the last one, and a
     * million filed bundles kept ~300 MiB of a 1.9 GiB view after its compactions had settled.
     */
    private static void dropDeletedBundles(ViewRocks rocks, OpenGuard guard) {
        guard.enter();
        try {
            rocks.compact(new byte[] {SearchIndex.BUNDLE}, new byte[] {(byte) (SearchIndex.BUNDLE + 1)});
        } catch (RocksDBException e) {
            LOG.warn("compacting the filed search bundles away failed; RocksDB drops them in its own time", e);
        } finally {
            guard.leave();
        }
    }

    /**
     * Files up to {@link #BATCH} kept bundles, the first ones, in one write: their entries (lists'
     * operands joined per list, in journal order, as a group joins them) and their deletes. Answers
     * how many.
     */
    private int fileBatch(ViewRocks rocks) {
        List<byte[]> keys = new ArrayList<>();
        PendingLayer layer = new PendingLayer(16);
        List<Changes.Entry> entries = new ArrayList<>(batch * 24);
        try (ReadOptions options = new ReadOptions();
             Slice upper = new Slice(new byte[] {(byte) (SearchIndex.BUNDLE + 1)})) {
            options.setIterateUpperBound(upper);
            try (RocksIterator it = rocks.db().newIterator(options)) {
                for (it.seek(key(filedThrough + 1)); isKept(it) && keys.size() < batch; it.next()) {
                    keys.add(it.key());
                    expandKept(it.value(), (k, v) -> entries.add(new Changes.Entry(k, v)));
                }
            }
        }
        if (keys.isEmpty()) {
            return 0;
        }
        layer.addDerived(entries);
        PendingLayer.Sorted filed = layer.sorted();
        int n = keys.size();
        byte[][] all = new byte[n + filed.keys().length][];
        byte[][] values = new byte[all.length][];
        boolean[] merges = new boolean[all.length];
        for (int i = 0; i < n; i++) {
            all[i] = keys.get(i); // deleted: 'O' sorts before 'Q' and 'q'
        }
        System.arraycopy(filed.keys(), 0, all, n, filed.keys().length);
        System.arraycopy(filed.values(), 0, values, n, filed.values().length);
        System.arraycopy(filed.merges(), 0, merges, n, filed.merges().length);
        rocks.write(BatchImage.of(all, values, merges));
        filedThrough = sequence(keys.get(n - 1));
        return n;
    }

    private static boolean isKept(RocksIterator it) {
        return it.isValid() && it.key().length == 9 && it.key()[0] == SearchIndex.BUNDLE;
    }

    static byte[] key(long sequence) {
        return ByteBuffer.allocate(9).put(SearchIndex.BUNDLE).putLong(sequence).array();
    }

    private static long sequence(byte[] key) {
        return ByteBuffer.wrap(Arrays.copyOfRange(key, 1, 9)).getLong();
    }
}
