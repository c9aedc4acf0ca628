package io.quire.node.view.store;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstPartitionerFactory;
import org.rocksdb.StringAppendOperator;
import org.rocksdb.SstPartitionerFixedPrefixFactory;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The view's RocksDB and everything it owns: the options, the one memory budget (block cache and
 * the memtables charged to it), the write options with and without the write-ahead log, and the
 * switches a catch-up turns (compactions, memtable filters, the log). Knows nothing of Kafka
 * Streams' store contract, pending groups or filters: the store's adapter drives it, holding the
 * store open around every call that reads ({@code enter}/{@code leave}).
 */
final class ViewRocks {

    private static final Logger LOG = LoggerFactory.getLogger(ViewRocks.class);

    static {
        RocksDB.loadLibrary();
    }

    /** Level-0 files that start a compaction while the view serves. */
    static final int L0_COMPACTION_TRIGGER = 8;

    /**
     * Level-0 files past which RocksDB slows, then stops, writes (its defaults are 20 and 36).
     * Above the catch-up's {@code CatchUp.MAX_L0_FILES}, so that a view fresh from a long catch-up,
     * which may hold up to that many, is compacted in the background without holding up the
     * journal's next records; while serving, level 0 stays near {@link #L0_COMPACTION_TRIGGER}
     * unless the compactions fall behind.
     */
    static final int L0_SLOWDOWN_TRIGGER = 56;
    static final int L0_STOP_TRIGGER = 72;

    /** The share of a memtable's size given to its filter of the keys written to it. */
    private static final double MEMTABLE_FILTER_RATIO = 0.1;

    private final LRUCache cache;
    private final WriteBufferManager writeBuffers;
    private final SstPartitionerFactory byKind;
    private final Options options;
    private final WriteOptions writeOptions;
    /** Writes of a catch-up: no write-ahead log ({@link #logged}). */
    private final WriteOptions unloggedOptions;
    private final RocksDB db;
    private volatile boolean logged = true;
    private volatile boolean compactionsPaused;
    /** Whether new memtables get a filter ({@link #memtableFilters}); only a catch-up's store opens without. */
    private boolean memtableFilters;

    private ViewRocks(LRUCache cache, WriteBufferManager writeBuffers, SstPartitionerFactory byKind, Options options,
                      File dir, boolean paused) throws RocksDBException {
        this.cache = cache;
        this.writeBuffers = writeBuffers;
        this.byKind = byKind;
        this.options = options;
        this.writeOptions = new WriteOptions(); // write-ahead log on; no fsync per write (kill -9 safe)
        this.unloggedOptions = new WriteOptions().setDisableWAL(true);
        this.db = RocksDB.open(options, dir.getAbsolutePath());
        this.compactionsPaused = paused;
        this.memtableFilters = !paused;
    }

    /**
     * Opens (creating it if missing) the RocksDB in {@code dir} with the view's options; with
     * {@code paused}, automatic compactions and memtable filters are off from the start (a
     * catch-up's store, see {@code ViewStore.openStandalone}).
     */
    static ViewRocks open(File dir, Tuning tuning, boolean paused) throws RocksDBException {
        LRUCache cache = new LRUCache(tuning.memoryBytes());
        WriteBufferManager writeBuffers = new WriteBufferManager(tuning.memoryBytes() / 2, cache);
        SstPartitionerFactory byKind = new SstPartitionerFixedPrefixFactory(1);
        // Whole-key bloom filters in the memtable as well as in the files: most lookups of the
        // applier are for keys that do not exist yet (a new fingerprint, subject or id). Not in
        // the memtables of a catch-up (see memtableFilters).
        // Level-0 files are compacted eight at a time and, by default, not compressed: on a
        // full replay compaction is most of RocksDB's CPU (docs/adr/0011-group-commit.md).
        // A compaction cuts its output files where the first byte (the kind) changes, so that
        // files of kinds written in key order (audit, ids, global ids) are moved down a level
        // rather than merged again (docs/adr/0017-files-cut-by-kind.md).
        // No Bloom filter in the bottom level, nor a look at one there: a read that reaches it
        // is for a key that is there (content by id, a subject's versions), or one the filters
        // of absent keys did not rule out, so the filter would say yes and cost a probe and
        // cache room; the bottom level holds most keys, so most of the filters' bytes go too
        // (docs/adr/0013-point-reads-of-the-view.md, "Later: no filter in the bottom level").
        // The search index's posting lists are appended to (operands end to end, docs/adr/0018).
        Options options = new Options().setCreateIfMissing(true)
                .setMergeOperator(APPEND)
                .setWriteBufferManager(writeBuffers)
                .setMemtablePrefixBloomSizeRatio(paused ? 0 : MEMTABLE_FILTER_RATIO)
                .setMemtableWholeKeyFiltering(true)
                .setWriteBufferSize(Math.max(4L << 20, tuning.memoryBytes() / 4))
                .setMaxWriteBufferNumber(3)
                .setLevel0FileNumCompactionTrigger(L0_COMPACTION_TRIGGER)
                .setLevel0SlowdownWritesTrigger(L0_SLOWDOWN_TRIGGER)
                .setLevel0StopWritesTrigger(L0_STOP_TRIGGER)
                .setCompressionType(tuning.compression())
                .setSstPartitionerFactory(byKind)
                .setOptimizeFiltersForHits(true)
                .setDisableAutoCompactions(paused)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache)
                        .setFilterPolicy(new BloomFilter(10))
                        .setCacheIndexAndFilterBlocks(true)
                        .setPinL0FilterAndIndexBlocksInCache(true));
        return new ViewRocks(cache, writeBuffers, byKind, options, dir, paused);
    }

    /** The merge operator of posting lists: one for the process, as RocksDB holds on to it. */
    static final StringAppendOperator APPEND = new StringAppendOperator("");

    /** The database, for reads (callers hold the store open). */
    RocksDB db() {
        return db;
    }

    /** Whether the database holds no key. */
    boolean isEmpty() {
        try (RocksIterator it = db.newIterator()) {
            it.seekToFirst();
            return !it.isValid();
        }
    }

    /** One group's batch image ({@link BatchImage}) as one write, logged unless a catch-up turned the log off. */
    void write(byte[] image) {
        try (WriteBatch batch = new WriteBatch(image)) {
            db.write(logged ? writeOptions : unloggedOptions, batch);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("view write failed", e);
        }
    }

    boolean logged() {
        return logged;
    }

    /** Writes from now on with (true) or without (false) the write-ahead log (see {@link CatchUpMode#unlogged}). */
    void logged(boolean on) {
        logged = on;
    }

    /** Syncs the write-ahead log. */
    void flushWal() throws RocksDBException {
        db.flushWal(true);
    }

    /** Pauses (true) or resumes (false) RocksDB's automatic compactions (see {@link CatchUpMode#catchingUp}). */
    void catchingUp(boolean on) {
        if (compactionsPaused == on) {
            return;
        }
        compactionsPaused = on;
        try {
            db.setOptions(MutableColumnFamilyOptions.builder().setDisableAutoCompactions(on).build());
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot " + (on ? "pause" : "resume") + " the view's compactions", e);
        }
    }

    /** Gives the memtables created from now on a filter of their keys (see {@link CatchUpMode#memtableFilters}). */
    void memtableFilters() {
        if (memtableFilters) {
            return;
        }
        try {
            db.setOptions(MutableColumnFamilyOptions.builder().setMemtablePrefixBloomSizeRatio(MEMTABLE_FILTER_RATIO).build());
        } catch (RocksDBException e) {
            throw new ProcessorStateException("cannot turn on the view's memtable filters", e);
        }
        memtableFilters = true;
    }

    /**
     * During a catch-up, turns compactions back on (RocksDB's serving triggers, stalls included)
     * once {@code maxFiles} or more level-0 files have piled up; true when it did.
     */
    boolean compactPast(int maxFiles) throws RocksDBException {
        if (!compactionsPaused) {
            return false;
        }
        long files = filesAtLevel0();
        if (files < maxFiles) {
            return false;
        }
        LOG.info("{} level-0 files in the view: compacting again for the rest of the catch-up", files);
        catchingUp(false);
        return true;
    }

    /** Flushes memtables to files, for a consistent on-disk copy (snapshots, clean shutdown). */
    void flushMemtables() throws RocksDBException {
        try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f);
        }
    }

    /** Compacts every file into the bottom level. */
    void compactAll() throws RocksDBException {
        db.compactRange();
    }

    /** Compacts the keys from {@code from} up to {@code to} (exclusive), all the way to the last level. */
    void compact(byte[] from, byte[] to) throws RocksDBException {
        db.compactRange(from, to);
    }

    /** Per live file: its level and the kinds (first bytes) of its smallest and largest keys. */
    List<int[]> fileKinds() {
        return db.getLiveFilesMetaData().stream()
                .map(f -> new int[] {f.level(), f.smallestKey()[0] & 0xff, f.largestKey()[0] & 0xff}).toList();
    }

    /** A RocksDB checkpoint into {@code target}: files hard-linked where the file system allows. */
    void checkpoint(Path target) throws RocksDBException {
        try (Checkpoint c = Checkpoint.create(db)) {
            c.createCheckpoint(target.toAbsolutePath().toString());
        }
    }

    /** Compactions running now plus those pending (0 when the files are settled). */
    long compactions() throws RocksDBException {
        return db.getLongProperty("rocksdb.num-running-compactions") + db.getLongProperty("rocksdb.compaction-pending");
    }

    /** Bytes of the view's table files on disk (RocksDB's {@code rocksdb.total-sst-files-size}). */
    long diskBytes() throws RocksDBException {
        return db.getLongProperty("rocksdb.total-sst-files-size");
    }

    /** Files in level 0, not yet compacted into the levels below. */
    long filesAtLevel0() throws RocksDBException {
        return Long.parseLong(db.getProperty("rocksdb.num-files-at-level0").trim());
    }

    /** Bytes of RocksDB memory of one kind. */
    long memory(StoreMemory kind) throws RocksDBException {
        return switch (kind) {
            case BLOCK_CACHE -> cache.getUsage();
            case PINNED -> cache.getPinnedUsage();
            case MEMTABLES -> db.getLongProperty("rocksdb.cur-size-all-mem-tables");
            case TABLE_READERS -> db.getLongProperty("rocksdb.estimate-table-readers-mem");
        };
    }

    /** A read of {@code key} with RocksDB's perf counters on for this thread, and what {@code count} takes from them. */
    long countedRead(byte[] key, ToLongFunction<PerfContext> count) throws RocksDBException {
        db.setPerfLevel(PerfLevel.ENABLE_COUNT);
        try {
            PerfContext perf = db.getPerfContext();
            perf.reset();
            db.get(key);
            return count.applyAsLong(perf);
        } finally {
            db.setPerfLevel(PerfLevel.DISABLE);
        }
    }

    /** RocksDB's estimate of the keys it holds; -1 when it cannot say. */
    long approximateNumEntries() {
        try {
            return db.getLongProperty("rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            return -1;
        }
    }

    /** Closes the database and frees every native handle it owned. */
    void close() {
        db.close();
        writeOptions.close();
        unloggedOptions.close();
        options.close();
        byKind.close();
        writeBuffers.close();
        cache.close();
    }
}
