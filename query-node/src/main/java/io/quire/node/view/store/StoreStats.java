package io.quire.node.view.store;

import java.util.List;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.rocksdb.PerfContext;
import org.rocksdb.RocksDBException;

/**
 * What the view store reports of its RocksDB, for the node's metrics and for tests: compactions,
 * memory by kind, level-0 files, which filters a read asked, the files' kinds. Each reading holds
 * the store open while it runs and is -1 when the store is closed or RocksDB cannot answer.
 */
final class StoreStats {

    private final OpenGuard guard;
    /** Set at open, before the guard opens. */
    private ViewRocks rocks;
    private BodyFile bodies;

    StoreStats(OpenGuard guard) {
        this.guard = guard;
    }

    /** The RocksDB, and the copy of bodies by id beside it, to report on once the store has opened them. */
    void readFrom(ViewRocks opened, BodyFile copies) {
        this.rocks = opened;
        this.bodies = copies;
    }

    /**
     * Compactions RocksDB is running now plus those it has pending (0 when the view's files are
     * settled); -1 when the store is not open. Right after a long catch-up a node compacts for a
     * while, taking a core from reads.
     */
    long compactions() {
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
    private long countedRead(byte[] key, ToLongFunction<PerfContext> count) {
        return whileOpen(() -> rocks.countedRead(key, count));
    }

    /** Files in level 0, not yet compacted into the levels below; -1 when the store is not open. */
    long filesAtLevel0() {
        return whileOpen(rocks::filesAtLevel0);
    }

    /** Bytes of the view's files: RocksDB's table files and the copy of bodies by id; -1 when the store is not open. */
    long diskBytes() {
        return whileOpen(() -> rocks.diskBytes() + bodies.bytes());
    }

    /** RocksDB's estimate of the keys of the view; -1 when the store is not open. */
    long estimatedKeys() {
        return whileOpen(rocks::approximateNumEntries);
    }

    /** Bytes of RocksDB memory by {@link StoreMemory} kind; -1 when the store is not open. */
    long memory(StoreMemory kind) {
        return whileOpen(() -> rocks.memory(kind));
    }

    private interface Reading {
        long read() throws RocksDBException;
    }

    /** {@code reading} with the store held open (see {@link OpenGuard}); -1 when it is closed or RocksDB fails. */
    private long whileOpen(Reading reading) {
        try {
            guard.enter();
        } catch (InvalidStateStoreException e) {
            return -1;
        }
        try {
            return reading.read();
        } catch (RocksDBException e) {
            return -1;
        } finally {
            guard.leave();
        }
    }

    /** Per live file: its level and the kinds (first bytes) of its smallest and largest keys (tests). */
    List<int[]> fileKinds() {
        guard.enter();
        try {
            return rocks.fileKinds();
        } finally {
            guard.leave();
        }
    }
}
