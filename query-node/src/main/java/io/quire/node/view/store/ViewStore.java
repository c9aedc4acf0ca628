package io.quire.node.view.store;

import io.quire.journal.view.Keys;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.rocksdb.Holder;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The view's RocksDB store. Unlike Kafka Streams' built-in RocksDB store it keeps RocksDB's
 * write-ahead log on, so each group of applied commands (their changes, outcomes and the position
 * after the last of them, written as one batch) survives {@code kill -9}; and it tells Streams
 * where to resume from its own stored position rather than from a checkpoint kept elsewhere, so
 * the resume point can never run ahead of the data. See docs/adr/0001-view-store.md.
 *
 * <p>It is the adapter of the store's rooms: {@link GroupWriter} (group commit: pending layers
 * every read consults before RocksDB, written as one batch per group; a crash loses only pending
 * writes, whose records are above the stored position and so are applied again from the journal),
 * {@link ViewRocks} (RocksDB, its options and memory), {@link ViewFilters} (keys never written),
 * {@link SettingsCache}, {@link WriteCounts} and {@link StoreIterators}. None of them knows this class.
 */
public final class ViewStore implements KeyValueStore<Bytes, byte[]> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ViewStore.class);

    private final String name;
    private final Tuning tuning;
    /** Pending groups and their writer (see {@link GroupWriter}). */
    private final GroupWriter groups;
    /** The RocksDB underneath and everything it owns (see {@link ViewRocks}). */
    private ViewRocks rocks;
    /** {@code rocks.db()}, for reads. */
    private RocksDB db;
    private volatile boolean open;
    private File dir;

    /** Settings reads answered from memory (see {@link SettingsCache}). */
    private final SettingsCache settings = new SettingsCache();

    /** How many commands wrote under each first byte of a key (see {@link WriteCounts}). */
    private final WriteCounts writeCounts = new WriteCounts();

    /** The filters of keys never written (see {@link ViewFilters}). */
    private final ViewFilters filters = new ViewFilters();

    public ViewStore(String name, GroupCommit group, Tuning tuning) {
        this.name = name;
        this.groups = new GroupWriter(group);
        this.tuning = tuning;
    }

    /** The bounds of the groups written from now on (a store the catch-up opened takes Streams' bounds). */
    void groupCommit(GroupCommit bounds) {
        groups.bounds(bounds);
    }

    /** Supplies this store to {@code Stores.keyValueStoreBuilder}, telling {@code created} about each instance. */
    public static KeyValueBytesStoreSupplier supplier(String name, GroupCommit group, Tuning tuning,
                                               java.util.function.Consumer<ViewStore> created) {
        return supplier(name, group, tuning, created, null);
    }

    /**
     * As above; the first store supplied is {@code opened} when given (a store the catch-up opened
     * and applied into: Streams goes on with it, block cache and all, instead of reopening it).
     */
    public static KeyValueBytesStoreSupplier supplier(String name, GroupCommit group, Tuning tuning,
                                               java.util.function.Consumer<ViewStore> created, ViewStore opened) {
        java.util.concurrent.atomic.AtomicReference<ViewStore> first = new java.util.concurrent.atomic.AtomicReference<>(opened);
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                ViewStore given = first.getAndSet(null);
                ViewStore store = given != null ? given : new ViewStore(name, group, tuning);
                store.groupCommit(group);
                created.accept(store);
                return store;
            }

            @Override
            public String metricsScope() {
                return "quire-view";
            }
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        if (!open) {
            openIn(context.stateDir());
        } else if (!dir.equals(new File(new File(context.stateDir(), "quire"), name))) {
            throw new IllegalStateException("the view store is open at " + dir + ", not under " + context.stateDir());
        }
        context.register(root, (key, value) -> {
            throw new IllegalStateException("the view is rebuilt by re-applying the journal, never by raw restore");
        });
    }

    /**
     * Opens the store in the folder Kafka Streams gives a global store of this application
     * ({@code stateDir}/quire/{@code name}) without Kafka Streams: for the catch-up that applies
     * the journal before Streams starts (the apply room's {@code CatchUp}), which then hands it to Streams
     * ({@link #init} of an open store only registers it). With {@code compactionsPaused}, RocksDB's
     * automatic compactions are off from the moment the store opens ({@link #catchingUp}; the
     * caller turns them on with {@code catchingUp(false)}): turned off after the open, a store that
     * opens with level-0 files past the trigger, as one installed from a snapshot taken right after
     * a catch-up does, has a compaction of all of them running already, and it runs on through the
     * catch-up.
     */
    public void openStandalone(File stateDir, boolean compactionsPaused) {
        openPaused = compactionsPaused;
        try {
            openIn(stateDir);
        } finally {
            openPaused = false;
        }
    }

    /** Whether {@link #openIn} opens with automatic compactions off (see {@link #openStandalone(File, boolean)}). */
    private boolean openPaused;

    private void openIn(File stateDir) {
        dir = new File(new File(stateDir, "quire"), name);
        try {
            Files.createDirectories(dir.toPath());
            rocks = ViewRocks.open(dir, tuning, openPaused);
            db = rocks.db();
            groups.writeTo(rocks);
        } catch (Exception e) {
            throw new ProcessorStateException("cannot open the view store at " + dir, e);
        }
        settings.load(db);
        boolean build = filters.open(isEmpty(), dir.toPath());
        open = true;
        if (build) {
            Thread builder = new Thread(() -> filters.build(filterSource()), "quire-view-filters");
            builder.setDaemon(true);
            builder.start();
        }
    }

    /** What building the filters reads of this store. */
    private ViewFilters.Source filterSource() {
        return new ViewFilters.Source() {
            @Override
            public Object writeLock() {
                return groups.lock();
            }

            @Override
            public PendingLayer[] pendingLayers() {
                return new PendingLayer[] {groups.pending(), groups.writing()};
            }

            @Override
            public RocksIterator newIterator() {
                return db.newIterator();
            }

            @Override
            public void enter() {
                ViewStore.this.enter();
            }

            @Override
            public void leave() {
                ViewStore.this.leave();
            }

            @Override
            public boolean isOpen() {
                return open;
            }
        };
    }

    /** Whether point reads and usage scans are answered by the absent-key filters (a store opened empty, or once built). */
    boolean filtersInUse() {
        return filters.inUse();
    }

    private boolean isEmpty() {
        return rocks.isEmpty();
    }

    /** Whether settings reads are answered from memory (false once the settings outgrew the bound). */
    boolean keepsSettingsInMemory() {
        return settings.entries() != null;
    }

    @Override
    public boolean managesOffsets() {
        return true;
    }

    /**
     * The last journal offset applied and written to RocksDB, from the position stored with the
     * data itself (pending writes not counted: they are lost on a crash).
     */
    @Override
    public Long committedOffset(TopicPartition partition) {
        byte[] position = getWritten(Keys.POSITION, true);
        if (position == null) {
            return null;
        }
        long offset = ByteBuffer.wrap(position).getLong();
        return offset < 0 ? null : offset;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        // The position is written in the same batch as the changes it covers, and Streams resumes
        // from it (managesOffsets), so the periodic commit writes the pending group without
        // syncing the write-ahead log: a kill -9 loses nothing the OS holds, and after a power
        // loss RocksDB recovers a consistent prefix whose position says where to resume. The
        // sync ran on the applying thread once a second and held every registration behind it.
        if (open) {
            groups.writePending();
        }
    }

    @Override
    public void flush() {
        if (!open) {
            return;
        }
        try {
            groups.writePending();
            rocks.flushWal();
        } catch (RocksDBException e) {
            throw new ProcessorStateException("flushing the view's write-ahead log failed", e);
        }
    }

    /**
     * While catching up (true), RocksDB's automatic compactions are off: level-0 files pile up,
     * and once the view serves (false) RocksDB compacts them in the background. A replay of a
     * million records leaves ~15 files and compacts nothing until it is done, so the compaction's
     * CPU leaves the replay, and each key is rewritten once instead of once per level it passes
     * (docs/adr/0016-a-smaller-view-and-deferred-compactions.md). Reads meanwhile look in more
     * files, each behind its pinned Bloom filter. {@link #compactPast} turns compactions back on
     * past a number of files, so level 0 stays bounded however long the catch-up.
     */
    public void catchingUp(boolean on) {
        rocks.catchingUp(on);
    }

    /**
     * While a catch-up applies (true), groups are written without the write-ahead log: nothing it
     * applies was acknowledged to anyone, and the journal holds all of it. A crash loses the
     * memtables, and the view reopens at the position of the last flushed file, which holds every
     * group before it (a memtable is flushed whole, each group in one memtable), so the next start
     * re-applies from there. Turning it off (false) writes what is pending and flushes the
     * memtables to files before any logged write follows, so a logged write can never be
     * recovered on top of unlogged ones a crash lost.
     */
    public void unlogged(boolean on) {
        if (on) {
            rocks.logged(false);
            return;
        }
        if (rocks.logged()) {
            return;
        }
        groups.writePending();
        try {
            memtableFilters();
            flushMemtables();
        } catch (RocksDBException e) {
            throw new ProcessorStateException("flushing the view's memtables after the catch-up failed", e);
        }
        rocks.logged(true);
    }

    /**
     * Gives the memtables created from now on a filter of their keys, as a store opened to serve
     * has; a no-op when they have one. A store opened for a catch-up ({@link #openStandalone(File,
     * boolean)}) writes its memtables without: the filter costs each key written a random access
     * into it (~12 % of the view writer's CPU over a replay of the bench journal), and the keys a
     * catch-up reads that are not there are mostly answered by the filters of absent keys before
     * RocksDB is asked. {@link #unlogged}{@code (false)} calls this before it flushes the catch-up's
     * memtables, so the memtables that follow, which serving writes to, have it. A store whose
     * catch-up ended before writing keeps its first memtable without one until it is flushed.
     */
    public void memtableFilters() {
        rocks.memtableFilters();
    }

    /**
     * During a catch-up, turns compactions back on (RocksDB's serving triggers, stalls included)
     * once {@code maxFiles} or more level-0 files have piled up; true when it did.
     */
    public boolean compactPast(int maxFiles) {
        return whileOpen(() -> rocks.compactPast(maxFiles) ? 1 : 0) == 1;
    }

    /** Flushes memtables to files, for a consistent on-disk copy (snapshots, clean shutdown). */
    void flushMemtables() throws RocksDBException {
        rocks.flushMemtables();
    }

    /** Compacts every file into the bottom level (tests: reads from files whose index is not pinned). */
    void compactAll() throws RocksDBException {
        rocks.compactAll();
    }

    /** Per live file: its level and the kinds (first bytes) of its smallest and largest keys (tests). */
    java.util.List<int[]> fileKinds() {
        enter();
        try {
            return rocks.fileKinds();
        } finally {
            leave();
        }
    }

    /**
     * A consistent RocksDB checkpoint of the view into {@code target} (which must not exist): files
     * hard-linked where the file system allows, the memtable flushed first. The position is inside
     * the checkpoint, so it says itself which journal offset it covers.
     */
    public void checkpoint(java.nio.file.Path target) throws RocksDBException {
        enter();
        try {
            groups.writePending();
            rocks.checkpoint(target);
            // Every key in the checkpoint went into the filters before it was written, and keys are
            // never taken out of them: filters copied after the checkpoint hold all of its keys.
            filters.write(groups.lock(), target);
        } catch (java.io.IOException e) {
            throw new ProcessorStateException("cannot write the view's filters into the checkpoint at " + target, e);
        } finally {
            leave();
        }
    }

    /**
     * Reads and open iterators in progress. A read counts itself in, then checks {@code open}; close
     * clears {@code open}, then waits for the count to drain before it frees the native handles:
     * no read ever touches a closed RocksDB (it gets an {@link InvalidStateStoreException} instead).
     */
    private final AtomicInteger inFlight = new AtomicInteger();

    private void enter() {
        inFlight.incrementAndGet();
        if (!open) {
            inFlight.decrementAndGet();
            throw new InvalidStateStoreException("the view store is closed");
        }
    }

    private void leave() {
        inFlight.decrementAndGet();
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        try {
            groups.writePending();
            flushMemtables();
        } catch (RocksDBException | ProcessorStateException e) {
            // the write-ahead log holds every batch written; pending writes are re-applied from the journal
        }
        saveFilters();
        groups.shutdown();
        rocks.close();
    }

    /**
     * On close, the absent-key filters go into the store's folder ({@link FilterFile}), so that the
     * next open reads them instead of building them from every key (2.8–9.0 s for the 2,250,000
     * keys of the bench's million-registration journal, while the node reads without them). Every
     * key ever handed to RocksDB went into them first, and from this point on no write is taken
     * ({@link #putAll} refuses), so they hold every key the closed store can hold; keys that a
     * crash before the close loses from RocksDB only make them answer "may exist" for those. The
     * next open deletes the file before it writes, so it is never read against a store that wrote
     * after it was saved; a crash leaves none, and the store builds its filters as before.
     */
    private void saveFilters() {
        synchronized (groups.lock()) {
            closedToWrites = true;
        }
        try {
            filters.write(groups.lock(), dir.toPath());
        } catch (java.io.IOException e) {
            LOG.warn("cannot save the view's filters in {}: the next open builds them", dir, e);
        }
    }

    /** Set when {@link #close} has saved the filters: no write is taken after that; guarded by the group writer's lock. */
    private boolean closedToWrites;

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public byte[] get(Bytes key) {
        return getBytes(key.get());
    }

    private byte[] getBytes(byte[] key) {
        Map<Bytes, byte[]> map = settings.entries();
        if (map != null && settings.covers(key)) {
            if (!open) {
                throw new InvalidStateStoreException("the view store is closed");
            }
            return map.get(Bytes.wrap(key));
        }
        // The key's KeyHash, taken once for the layers and the filter, and only when one of them
        // needs it: a read by id while nothing is pending hashes nothing. (0 means not yet taken;
        // a key whose hash is 0 is hashed again, which costs only the time.)
        long hash = 0;
        byte[] p = null;
        PendingLayer layer = groups.pending();
        if (!layer.isEmpty()) {
            hash = KeyHash.of(key);
            p = layer.get(key, hash);
        }
        if (p == null) {
            PendingLayer w = groups.writing();
            if (w != null && !w.isEmpty()) {
                hash = hash != 0 ? hash : KeyHash.of(key);
                p = w.get(key, hash);
            }
        }
        if (p != null) {
            return p == PendingLayer.TOMBSTONE ? null : p;
        }
        AbsentKeys filter = filters.keys(); // read after the layers: see AbsentKeys
        if (filter != null && filter.covers(key)) {
            if (!filter.mayContain(key, hash != 0 ? hash : KeyHash.of(key))) {
                if (!open) {
                    throw new InvalidStateStoreException("the view store is closed");
                }
                return null;
            }
            // Seen written: there but for the filter's false positives (~1 %) and keys deleted
            // since, so keyMayExist would only look it up twice (ADR 0013, Later).
            return getWritten(key, false);
        }
        return getWritten(key, !MOSTLY_PRESENT[key.length == 0 ? 0 : key[0] & 0xff]);
    }

    /**
     * Kinds read nearly always for a key that is there, so read with {@code get} alone (ADR 0013,
     * Later): content by id ({@code I}, {@code J} in a named context), which the API reads for ids
     * that clients got from it and the edge for ids that subject versions name, and subject versions
     * ({@code V}), read for the latest version a subject record names. A probe first would look
     * such a key up twice. The misses left (an unknown id, a hard-deleted version, an import's
     * version number) cost {@code get}'s way of reporting one, and the applier's reads of a fresh
     * id are spared by {@code RegistryView#mayHoldSchemaId}.
     */
    private static final boolean[] MOSTLY_PRESENT = new boolean[256];

    static {
        for (char kind : new char[] {'I', 'J', 'V'}) {
            MOSTLY_PRESENT[kind] = true;
        }
    }

    /**
     * A written value, or null; {@code probe}: ask {@code keyMayExist} first. Most keys a registration reads are absent (settings of a subject
     * that has none, content not yet stored), and RocksJava's {@code get} reports an absent key by
     * throwing and catching a C++ exception inside its JNI code (~2 us here, and the unwinder
     * serialises threads); {@code keyMayExist} answers from the memtables and bloom filters
     * without one. It is asked without a value holder, and a key that may exist is read with
     * {@code get}: with a holder, RocksJava 10.1 reports a key of a file whose index block is not
     * in the block cache as found in memory, with an empty value (facebook/rocksdb#12921,
     * #12935; {@code PointReadTest}). A full replay of a million records read an empty subject
     * record that way once the cache had evicted such blocks.
     */
    private byte[] getWritten(byte[] key, boolean probe) {
        enter();
        try {
            return !probe || db.keyMayExist(key, (Holder<byte[]>) null) ? db.get(key) : null;
        } catch (RocksDBException e) {
            throw new ProcessorStateException("view read failed", e);
        } finally {
            leave();
        }
    }

    @Override
    public void put(Bytes key, byte[] value) {
        putAll(List.of(KeyValue.pair(key, value)));
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] old = get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    /**
     * One command's changes, visible to readers at once and written to RocksDB with the rest of
     * its group: they land all together or not at all. A full group is handed to the writer
     * thread, and the applier goes on into a new one; it waits only if the writer still holds
     * the group before.
     */
    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        synchronized (groups.lock()) {
            if (closedToWrites) {
                throw new InvalidStateStoreException("the view store is closed");
            }
            PendingLayer layer = groups.beginCommand();
            long[] hashes = new long[entries.size()];
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = KeyHash.of(entries.get(i).key.get());
            }
            layer.putAll(entries, hashes);
            long size = 0;
            for (int i = 0; i < hashes.length; i++) {
                KeyValue<Bytes, byte[]> e = entries.get(i);
                // into the filters before the group is handed over (see AbsentKeys)
                filters.added(e.key.get(), hashes[i], e.value);
                if (settings.covers(e.key.get())) {
                    settings.put(e.key.get(), e.value);
                }
                size += e.key.get().length + (e.value == null ? 0 : e.value.length) + 64;
            }
            writeCounts.count(entries);
            groups.endCommand(size);
        }
    }

    /**
     * A number that grows whenever a command writes an entry whose key starts with {@code prefix};
     * equal numbers from this store mean no such write happened in between.
     */
    public long writesUnder(byte prefix) {
        return writeCounts.under(prefix);
    }

    /** CPU time the writer thread spent writing groups since the store opened (the catch-up's report). */
    public long writerCpuNanos() {
        return groups.cpuNanos();
    }

    /** RocksDB batches written since the store opened (group commits). */
    public long batchesWritten() {
        return groups.batches();
    }

    /**
     * Compactions RocksDB is running now plus those it has pending (0 when the view's files are
     * settled); -1 when the store is not open. Right after a long catch-up a node compacts for a
     * while, taking a core from reads.
     */
    public long compactions() {
        return whileOpen(rocks::compactions);
    }

    /**
     * Whether a memtable's filter answered a read of {@code key} from RocksDB on this thread (for
     * tests: RocksDB skips the filter of an empty memtable, and counts only when it has one).
     */
    boolean memtableFilterAnswers(byte[] key) {
        return countedRead(key, perf -> perf.getBloomMemtableMissCount() + perf.getBloomMemtableHitCount()) > 0;
    }

    /** How many files' Bloom filters a read of {@code key} from RocksDB asked, on this thread (tests). */
    long fileFiltersAsked(byte[] key) {
        return countedRead(key, perf -> perf.getBloomSstHitCount() + perf.getBloomSstMissCount());
    }

    /** A read of {@code key} from RocksDB with its perf counters on, and what {@code count} takes from them. */
    private long countedRead(byte[] key, java.util.function.ToLongFunction<org.rocksdb.PerfContext> count) {
        return whileOpen(() -> rocks.countedRead(key, count));
    }

    /** Files in level 0, not yet compacted into the levels below; -1 when the store is not open. */
    long filesAtLevel0() {
        return whileOpen(rocks::filesAtLevel0);
    }

    /** Bytes of RocksDB memory by {@link StoreMemory} kind; -1 when the store is not open. */
    public long memory(StoreMemory kind) {
        return whileOpen(() -> rocks.memory(kind));
    }

    private interface Reading {
        long read() throws RocksDBException;
    }

    /** {@code reading} with the store held open (see {@link #enter}); -1 when it is closed or RocksDB fails. */
    private long whileOpen(Reading reading) {
        try {
            enter();
        } catch (InvalidStateStoreException e) {
            return -1;
        }
        try {
            return reading.read();
        } catch (RocksDBException e) {
            return -1;
        } finally {
            leave();
        }
    }

    /** Commands applied but not yet written to RocksDB. */
    int pendingCommands() {
        return groups.pendingCommands();
    }

    @Override
    public byte[] delete(Bytes key) {
        byte[] old = get(key);
        putAll(List.of(KeyValue.pair(key, null)));
        return old;
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return iterator(from == null ? null : from.get(), to == null ? null : to.get(), null);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(null, null, null);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
        byte[] p = serializer.serialize(null, prefix);
        return iterator(p, null, p);
    }

    /**
     * An iterator counts as a read in progress until it is closed. It merges the pending layer,
     * taken first, with a RocksDB iterator taken after it (see {@link GroupWriter#pending}); pending values
     * win, pending deletes hide.
     */
    private KeyValueIterator<Bytes, byte[]> iterator(byte[] from, byte[] toInclusive, byte[] prefix) {
        PendingLayer layer = groups.pending();
        PendingLayer older = groups.writing();
        AbsentKeys usages = filters.usages(); // read after the layers, as in getBytes
        if (prefix != null && toInclusive == null && Arrays.equals(from, prefix) && usages != null
                && Keys.isSubjectUsages(prefix) && !usages.mayContain(prefix)) {
            // never written, so not in RocksDB: at most a delete in the layers
            if (!open) {
                throw new InvalidStateStoreException("the view store is closed");
            }
            return new StoreIterators.Listed(PendingLayer.merged(layer.sortedRange(from, null, prefix),
                    older == null ? List.of() : older.sortedRange(from, null, prefix)).iterator());
        }
        enter();
        try {
            StoreIterators.Iter written = new StoreIterators.Iter(db.newIterator(), from, toInclusive, prefix, this::leave);
            List<Map.Entry<Bytes, byte[]>> part = PendingLayer.merged(layer.sortedRange(from, toInclusive, prefix),
                    older == null ? List.of() : older.sortedRange(from, toInclusive, prefix));
            if (part.isEmpty()) {
                return written;
            }
            return new StoreIterators.Merged(part.iterator(), written);
        } catch (RuntimeException e) {
            leave();
            throw e;
        }
    }

    @Override
    public long approximateNumEntries() {
        return rocks.approximateNumEntries();
    }
}
