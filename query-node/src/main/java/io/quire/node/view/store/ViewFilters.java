package io.quire.node.view.store;

import io.quire.journal.view.Keys;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The view store's filters of keys never written: one of fingerprints and subjects ({@link
 * #keys}), one of the (id, subject) pairs of usage keys ({@link #usages}). A point read of a key
 * the first says was never written skips RocksDB; a scan of one subject's uses of an id that the
 * second has never seen answers from the pending layers alone (a registration of content another
 * subject holds asks that twice, and a RocksDB iterator costs more than the rest of the lookup).
 *
 * <p>A store opened empty has them from the start; one opened on data reads the file saved with
 * it ({@link FilterFile}) or builds them in the background ({@link #build}), reading without them
 * until then. The store adds every key it takes ({@link #added}, under its write lock) to the
 * filters in use or being built.
 */
final class ViewFilters {

    private static final Logger LOG = LoggerFactory.getLogger(ViewFilters.class);

    /**
     * Each filter's fixed size: ~13.4 million keys at 10 bits each, then it stands aside. A
     * registry of 10 M schemas has ~12.5 million fingerprint and subject keys; past the filter, a
     * registration's lookups of absent keys reach the bottom level, which has no Bloom filter to
     * answer them (ADR 0013, "Later: no filter in the bottom level").
     */
    static final long FILTER_BYTES = 16L << 20;

    /** The kinds whose keys go into one of the two filters. */
    private static final byte[] FILTERED_KINDS = {'F', 'S', 'R'};
    private static final int CHUNK = 4096;

    private volatile AbsentKeys keys;
    private volatile AbsentKeys usages;
    /** Filters being built (see {@link #build}); guarded by the store's write lock. */
    private AbsentKeys buildingKeys;
    private AbsentKeys buildingUsages;

    /**
     * At open: fresh filters for an empty store, else the ones saved in {@code dir}, if any.
     * Returns whether they still have to be built.
     */
    boolean open(boolean empty, Path dir) {
        keys = empty ? keyFilter() : null;
        usages = empty ? usageFilter() : null;
        if (!empty) {
            AbsentKeys[] saved = FilterFile.take(dir, keyFilter(), usageFilter());
            if (saved != null) {
                keys = saved[0];
                usages = saved[1];
                LOG.info("view filters read from the file saved with the view (a snapshot, or the store's last close)");
            }
        }
        return keys == null;
    }

    /** The filter of fingerprints and subjects in use, or null (read after the pending layers: see AbsentKeys). */
    AbsentKeys keys() {
        return keys;
    }

    /** The filter of (id, subject) usage pairs in use, or null. */
    AbsentKeys usages() {
        return usages;
    }

    /** Whether point reads and usage scans are answered by the filters (a store opened empty, or once built). */
    boolean inUse() {
        return keys != null && usages != null;
    }

    /**
     * One written entry (holding the write lock; {@code value} null for a delete, which leaves the
     * filters as they are): into the filters in use, or those being built.
     */
    void added(byte[] key, long hash, byte[] value) {
        if (value == null) {
            return;
        }
        AbsentKeys filter = keys != null ? keys : buildingKeys;
        AbsentKeys pairs = usages != null ? usages : buildingUsages;
        if (filter != null) {
            filter.add(key, hash);
        }
        addUsage(pairs, key);
    }

    /** {@link #build} on a thread of its own. */
    void buildInBackground(GroupWriter groups, OpenGuard guard, RocksDB db) {
        Thread builder = new Thread(() -> build(groups, guard, db), "quire-view-filters");
        builder.setDaemon(true);
        builder.start();
    }

    /**
     * Builds the filters of a store that held data when opened, and then puts them to use. Every
     * key of the filtered kinds ends up in them: those of the pending groups are added first and
     * every later write is added by {@link #added} (both under the write lock), and those already
     * in RocksDB are read by one iterator created after that, so nothing falls between. Keys are
     * added under the write lock in chunks, since a filter takes one writer at a time. A store
     * with more keys than a filter holds gets none, as a store that outgrew them does.
     */
    void build(GroupWriter groups, OpenGuard guard, RocksDB db) {
        long t0 = System.nanoTime();
        AbsentKeys newKeys = keyFilter();
        AbsentKeys newUsages = usageFilter();
        long read = 0;
        boolean complete = false;
        try {
            guard.enter();
        } catch (InvalidStateStoreException e) {
            return; // closed before it began
        }
        try {
            synchronized (groups.lock()) {
                buildingKeys = newKeys;
                buildingUsages = newUsages;
                for (PendingLayer layer : new PendingLayer[] {groups.pending(), groups.writing()}) {
                    if (layer == null) {
                        continue;
                    }
                    for (byte kind : FILTERED_KINDS) {
                        for (Map.Entry<Bytes, byte[]> e : layer.sortedRange(new byte[] {kind}, null, new byte[] {kind})) {
                            if (e.getValue() != PendingLayer.TOMBSTONE) {
                                addToBoth(newKeys, newUsages, e.getKey().get());
                            }
                        }
                    }
                }
            }
            try (RocksIterator it = db.newIterator()) { // after the layers were taken: see above
                List<byte[]> chunk = new ArrayList<>(CHUNK);
                complete = true;
                kinds:
                for (byte kind : FILTERED_KINDS) {
                    for (it.seek(new byte[] {kind}); it.isValid(); it.next()) {
                        byte[] k = it.key();
                        if (k.length == 0 || k[0] != kind) {
                            break;
                        }
                        chunk.add(k);
                        read++;
                        if (chunk.size() == CHUNK && !addChunk(groups.lock(), guard, newKeys, newUsages, chunk)) {
                            complete = false;
                            break kinds;
                        }
                    }
                    it.status();
                }
                complete = complete && addChunk(groups.lock(), guard, newKeys, newUsages, chunk);
            }
        } catch (RocksDBException | RuntimeException e) {
            complete = false;
            LOG.warn("building the view's absent-key filters failed; reads of absent keys go to RocksDB", e);
        } finally {
            synchronized (groups.lock()) {
                if (complete && guard.isOpen()) {
                    keys = newKeys;
                    usages = newUsages;
                }
                buildingKeys = null;
                buildingUsages = null;
            }
            guard.leave();
        }
        if (complete) {
            LOG.info("view filters built from {} keys in {} ms", read, (System.nanoTime() - t0) / 1_000_000);
        } else if (newKeys.saturated() || newUsages.saturated()) {
            LOG.info("the view holds more keys than its absent-key filters ({} read): reads of absent keys go to RocksDB", read);
        }
    }

    /**
     * Writes a copy of both filters, taken under {@code writeLock}, into {@code target}
     * ({@link FilterFile}); nothing when they are not in use or one is saturated.
     */
    void write(Object writeLock, Path target) throws IOException {
        byte[] keyBytes;
        byte[] usageBytes;
        synchronized (writeLock) {
            AbsentKeys k = keys;
            AbsentKeys u = usages;
            if (k == null || u == null || k.saturated() || u.saturated()) {
                return;
            }
            keyBytes = k.toBytes();
            usageBytes = u.toBytes();
        }
        FilterFile.write(target, keyBytes, usageBytes);
    }

    /** The filter of absent fingerprints and subjects. */
    private static AbsentKeys keyFilter() {
        return new AbsentKeys(FILTER_BYTES, (byte) 'F', (byte) 'S');
    }

    /** The filter of (id, subject) pairs that usage keys hold. */
    private static AbsentKeys usageFilter() {
        return new AbsentKeys(FILTER_BYTES, (byte) 'R');
    }

    /** Adds {@code chunk} to the filters being built and clears it; false when the store closed or a filter is full. */
    private static boolean addChunk(Object lock, OpenGuard guard, AbsentKeys k, AbsentKeys u, List<byte[]> chunk) {
        synchronized (lock) {
            for (byte[] key : chunk) {
                addToBoth(k, u, key);
            }
        }
        chunk.clear();
        return guard.isOpen() && !k.saturated() && !u.saturated();
    }

    /** A written key into the filters (holding the write lock): a usage key as its (id, subject) pair. */
    private static void addToBoth(AbsentKeys k, AbsentKeys u, byte[] key) {
        k.add(key);
        addUsage(u, key);
    }

    /** A usage key as its (id, subject) pair into the usage filter, if there is one; other keys are ignored. */
    private static void addUsage(AbsentKeys pairs, byte[] key) {
        if (pairs != null) {
            byte[] pair = Keys.subjectUsagesOf(key);
            if (pair != null) {
                pairs.add(pair);
            }
        }
    }

    /**
     * On close, the absent-key filters go into the store's folder ({@link FilterFile}), so that the
     * next open reads them instead of building them from every key (2.8–9.0 s for the 2,250,000
     * keys of the bench's million-registration journal, while the node reads without them). Every
     * key ever handed to RocksDB went into them first, and from this point on no write is taken
     * (the store's {@code putAll} refuses), so they hold every key the closed store can hold; keys that a
     * crash before the close loses from RocksDB only make them answer "may exist" for those. The
     * next open deletes the file before it writes, so it is never read against a store that wrote
     * after it was saved; a crash leaves none, and the store builds its filters as before.
     */
    void saveOnClose(Object writeLock, Path dir) {
        try {
            write(writeLock, dir);
        } catch (IOException e) {
            LOG.warn("cannot save the view's filters in {}: the next open builds them", dir, e);
        }
    }
}
