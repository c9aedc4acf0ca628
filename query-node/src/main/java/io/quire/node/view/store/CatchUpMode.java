package io.quire.node.view.store;

import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.rocksdb.RocksDBException;

/**
 * The switches a catch-up turns on the view store (docs/adr/0014-catch-up-before-streams.md,
 * 0016): compactions paused while it applies, groups written without the write-ahead log,
 * memtables without their filter; and turning each back for serving.
 */
public final class CatchUpMode {

    private final ViewRocks rocks;
    private final GroupWriter groups;
    private final OpenGuard guard;
    private final SearchFiling filing;

    CatchUpMode(ViewRocks rocks, GroupWriter groups, OpenGuard guard, SearchFiling filing) {
        this.rocks = rocks;
        this.groups = groups;
        this.guard = guard;
        this.filing = filing;
    }

    /**
     * From now on the search index's bundles are kept, one key each, instead of filed into their
     * lists (a catch-up starts): they are filed in large batches once the store serves, so the
     * catch-up does not pay for the index ({@link SearchFiling}).
     */
    public void deferIndex() {
        filing.defer();
    }

    /** The commands' bundles filed per write once the store serves (fewer in the store's tests, to file in several). */
    void filingBatch(int commands) {
        filing.batch(commands);
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
            rocks.flushMemtables();
        } catch (RocksDBException e) {
            throw new ProcessorStateException("flushing the view's memtables after the catch-up failed", e);
        }
        rocks.logged(true);
    }

    /**
     * Gives the memtables created from now on a filter of their keys, as a store opened to serve
     * has; a no-op when they have one. A store opened for a catch-up ({@code ViewStore.openStandalone}) writes its memtables without: the filter costs each key written a random access
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
        try {
            guard.enter();
        } catch (InvalidStateStoreException e) {
            return false;
        }
        try {
            return rocks.compactPast(maxFiles);
        } catch (RocksDBException e) {
            return false;
        } finally {
            guard.leave();
        }
    }
}
