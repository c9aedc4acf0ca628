package io.quire.node.view.store;

import io.quire.journal.view.Changes;
import io.quire.journal.view.Keys;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

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
 * {@link ViewRocks} (RocksDB, its options and memory), {@link StoreReads} (point reads and
 * iterators through the layers), {@link ViewFilters} (keys never written), {@link CatchUpMode},
 * {@link StoreStats}, {@link OpenGuard}, {@link SettingsCache}, {@link WriteCounts} and
 * {@link StoreIterators}. None of them knows this class.
 */
public final class ViewStore implements KeyValueStore<Bytes, byte[]> {

    private final String name;
    private final Tuning tuning;
    /** Pending groups and their writer (see {@link GroupWriter}). */
    final GroupWriter groups; // package-private: the store tests look at its copy of bodies
    /** The RocksDB underneath and everything it owns (see {@link ViewRocks}). */
    private ViewRocks rocks;
    /** Whether the store is open, and the reads in progress (see {@link OpenGuard}). */
    private final OpenGuard guard = new OpenGuard();
    private File dir;

    /** Settings reads answered from memory (see {@link SettingsCache}). */
    private final SettingsCache settings = new SettingsCache();
    /** How many commands wrote under each first byte of a key (see {@link WriteCounts}). */
    private final WriteCounts writeCounts = new WriteCounts();
    /** The filters of keys never written (see {@link ViewFilters}). */
    private final ViewFilters filters = new ViewFilters();
    /** Point reads and iterators (see {@link StoreReads}). */
    private final StoreReads reads;
    /** The catch-up's switches, once the store is open. */
    private CatchUpMode catchUp;
    /** What the store reports of RocksDB (see {@link StoreStats}). */
    private final StoreStats stats;
    /** How the search index's bundles are filed: in their group, or kept during a catch-up (see {@link SearchFiling}). */
    private final SearchFiling filing;

    public ViewStore(String name, GroupCommit group, Tuning tuning) {
        this.name = name;
        this.groups = new GroupWriter(group);
        this.tuning = tuning;
        this.reads = new StoreReads(guard, groups, filters, settings);
        this.stats = new StoreStats(guard);
        this.filing = new SearchFiling(groups.lock());
    }

    /** The bounds of the groups written from now on (a store the catch-up opened takes Streams' bounds). */
    void groupCommit(GroupCommit bounds) {
        groups.bounds(bounds);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        if (!guard.isOpen()) {
            openIn(context.stateDir());
        } else if (!dir.equals(new File(new File(context.stateDir(), "quire"), name))) {
            throw new IllegalStateException("the view store is open at " + dir + ", not under " + context.stateDir());
        }
        context.register(root, (key, value) -> {
            throw new IllegalStateException("the view is rebuilt by re-applying the journal, never by raw restore");
        });
        fileKeptIndex();
    }

    /** Starts filing the search index's terms a catch-up kept, once the store serves (Streams opened it). */
    public void fileKeptIndex() {
        filing.startFiling(groups, rocks, guard);
    }

    /**
     * Opens the store where Streams keeps it ({@code stateDir}/quire/{@code name}) without Streams,
     * for the catch-up ({@code CatchUp}), which hands it to Streams ({@link #init} then only
     * registers it). With {@code compactionsPaused}, compactions are off from the open: turned off
     * after it, a store opening with level-0 files past the trigger (from a snapshot) compacts them all.
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
    /** Set when {@link #close} has saved the filters: no write is taken after that; guarded by the group writer's lock. */
    private boolean closedToWrites;

    private void openIn(File stateDir) {
        dir = new File(new File(stateDir, "quire"), name);
        try {
            Files.createDirectories(dir.toPath());
            rocks = ViewRocks.open(dir, tuning, openPaused);
            groups.writeTo(rocks, BodyFile.open(dir.toPath())); // bodies by id written from here on (ADR 0019)
            reads.readFrom(rocks.db(), groups.bodies());
            filing.open(rocks);
            catchUp = new CatchUpMode(rocks, groups, guard, filing);
            stats.readFrom(rocks, groups.bodies());
        } catch (Exception e) {
            throw new ProcessorStateException("cannot open the view store at " + dir, e);
        }
        settings.load(rocks.db());
        boolean build = filters.open(rocks.isEmpty(), dir.toPath());
        guard.opened();
        if (build) {
            filters.buildInBackground(groups, guard, rocks.db());
        }
        groups.bodies().fillInBackground(rocks.db(), guard); // a store opened with data (ADR 0019)
    }

    /** Whether point reads and usage scans are answered by the absent-key filters (a store opened empty, or once built). */
    boolean filtersInUse() {
        return filters.inUse();
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
        byte[] position = reads.written(Keys.POSITION, true);
        if (position == null) {
            return null;
        }
        long offset = ByteBuffer.wrap(position).getLong();
        return offset < 0 ? null : offset;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        // The position is in the changes' batch, so no log sync (it held registrations up): a kill -9
        // loses nothing the OS holds, a power loss a suffix (the position says where to resume).
        if (guard.isOpen()) {
            groups.writePending();
        }
    }

    /** Writes the pending groups, for a reader of the search index (RocksDB only); false if it still lacks kept bundles after {@code millis}. */
    public boolean settle(long millis) throws InterruptedException {
        if (guard.isOpen()) {
            groups.writePending();
        }
        return filing.awaitComplete(millis);
    }

    @Override
    public void flush() {
        if (!guard.isOpen()) {
            return;
        }
        try {
            groups.writePending();
            rocks.flushWal();
        } catch (RocksDBException e) {
            throw new ProcessorStateException("flushing the view's write-ahead log failed", e);
        }
    }

    /** The switches a catch-up turns on this store (see {@link CatchUpMode}); null before it opens. */
    public CatchUpMode catchUp() {
        return catchUp;
    }

    /** Flushes memtables to files, for a consistent on-disk copy (snapshots, clean shutdown). */
    void flushMemtables() throws RocksDBException {
        rocks.flushMemtables();
    }

    /**
     * A consistent RocksDB checkpoint of the view into {@code target} (which must not exist): files
     * hard-linked where the file system allows, the memtable flushed first. The position is inside
     * the checkpoint, so it says itself which journal offset it covers.
     */
    public void checkpoint(Path target) throws RocksDBException {
        guard.enter();
        try {
            groups.writePending();
            rocks.checkpoint(target);
            // Every key in the checkpoint went into the filters before it was written, and keys are
            // never taken out of them: filters copied after the checkpoint hold all of its keys.
            filters.write(groups.lock(), target);
        } catch (IOException e) {
            throw new ProcessorStateException("cannot write the view's filters into the checkpoint at " + target, e);
        } finally {
            guard.leave();
        }
    }

    @Override
    public void close() {
        filing.close(); // kept bundles stay for the next start
        if (!guard.closeAndDrain(10)) {
            return;
        }
        try {
            groups.writePending();
            flushMemtables();
        } catch (RocksDBException | ProcessorStateException e) {
            // the write-ahead log holds every batch written; pending writes are re-applied from the journal
        }
        synchronized (groups.lock()) {
            closedToWrites = true; // from here on no write is taken (putAll refuses)
        }
        filters.saveOnClose(groups.lock(), dir.toPath());
        groups.shutdown();
        rocks.close();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return guard.isOpen();
    }

    @Override
    public byte[] get(Bytes key) {
        return reads.get(key.get());
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

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        putAll(entries, List.of());
    }

    /**
     * One command's changes, visible to readers at once and written to RocksDB with the rest of
     * its group: they land all together or not at all (a full group goes to the writer thread; the
     * applier waits only if the writer still holds the group before). Its derived entries (the
     * search index's) go with the group, readable once it is written ({@link #settle}).
     */
    public void putAll(List<KeyValue<Bytes, byte[]>> entries, List<Changes.Entry> derived) {
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
            size += derived.isEmpty() ? 0 : layer.addDerived(filing.entries(derived));
            writeCounts.count(entries);
            groups.endCommand(size);
        }
    }

    /** A number that grows whenever a command writes under {@code prefix}: equal numbers, no such write between. */
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

    /** Compactions RocksDB is running now plus those pending; -1 when the store is not open (see {@link StoreStats}). */
    public long compactions() {
        return stats.compactions();
    }

    /** Bytes of the view's table files on disk; -1 when the store is not open. */
    public long diskBytes() {
        return stats.diskBytes();
    }

    /** Bytes of RocksDB memory by {@link StoreMemory} kind; -1 when the store is not open. */
    public long memory(StoreMemory kind) {
        return stats.memory(kind);
    }

    /** The store's figures, for the store's own tests (filters asked, files by level). */
    StoreStats stats() {
        return stats;
    }

    /** Commands whose search terms a catch-up kept and the index has not filed yet (0: complete). */
    public long searchIndexKept() {
        return filing.kept();
    }

    void compactAll() throws RocksDBException {
        rocks.compactAll();
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
        return reads.iterator(from == null ? null : from.get(), to == null ? null : to.get(), null);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return reads.iterator(null, null, null);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
        byte[] p = serializer.serialize(null, prefix);
        return reads.iterator(p, null, p);
    }

    /** RocksDB's estimate of the keys of the view; -1 when the store is not open. */
    @Override
    public long approximateNumEntries() {
        return stats.estimatedKeys();
    }
}
