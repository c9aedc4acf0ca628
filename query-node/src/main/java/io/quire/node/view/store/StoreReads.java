package io.quire.node.view.store;

import io.quire.journal.view.Keys;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.rocksdb.Holder;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Reads of the view: a settings entry from memory, else the pending layers (the group being filled,
 * then the one being written), else the filters of keys never written, else RocksDB; and
 * iterators that merge the layers over RocksDB's files.
 */
final class StoreReads {

    /**
     * Kinds read nearly always for a key that is there, so read with {@code get} alone (ADR 0013,
     * Later): content by id ({@code I}, {@code J} in a named context), which the API reads for ids
     * that clients got from it and the edge for ids that subject versions name, and subject versions
     * ({@code V}), read for the latest version a subject record names. A probe first would look
     * such a key up twice. The misses left (an unknown id, a hard-deleted version, an import's
     * version number) cost {@code get}'s way of reporting one, and the applier's reads of a fresh
     * id are spared by {@code IdReads#mayHoldSchemaId}.
     */
    private static final boolean[] MOSTLY_PRESENT = new boolean[256];

    static {
        for (char kind : new char[] {'I', 'J', 'V'}) {
            MOSTLY_PRESENT[kind] = true;
        }
    }

    private final OpenGuard guard;
    private final GroupWriter groups;
    private final ViewFilters filters;
    private final SettingsCache settings;
    /** Set at open, before the guard opens (whose volatile flag every RocksDB read checks first). */
    private RocksDB db;
    /** Set at open with {@link #db}. */
    private BodyFile bodies;

    StoreReads(OpenGuard guard, GroupWriter groups, ViewFilters filters, SettingsCache settings) {
        this.guard = guard;
        this.groups = groups;
        this.filters = filters;
        this.settings = settings;
    }

    /** The RocksDB to read once the store has opened it. */
    void readFrom(RocksDB opened, BodyFile copies) {
        this.db = opened;
        this.bodies = copies;
    }

    /** A point read: the newest value of {@code key}, or null. */
    byte[] get(byte[] key) {
        Map<Bytes, byte[]> map = settings.entries();
        if (map != null && settings.covers(key)) {
            guard.check();
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
                guard.check();
                return null;
            }
            // Seen written: there but for the filter's false positives (~1 %) and keys deleted
            // since, so keyMayExist would only look it up twice (ADR 0013, Later).
            return written(key, false);
        }
        return written(key, !MOSTLY_PRESENT[key.length == 0 ? 0 : key[0] & 0xff]);
    }

    /**
     * A written value, or null; {@code probe}: ask {@code keyMayExist} first. Most keys a
     * registration reads are absent (settings of a subject that has none, content not yet stored),
     * and RocksJava's {@code get} reports an absent key by throwing and catching a C++ exception
     * inside its JNI code (~2 us here, and the unwinder serialises threads); {@code keyMayExist}
     * answers from the memtables and bloom filters without one. It is asked without a value holder,
     * and a key that may exist is read with {@code get}: with a holder, RocksJava 10.1 reports a
     * key of a file whose index block is not in the block cache as found in memory, with an empty
     * value (facebook/rocksdb#12921, #12935; {@code PointReadTest}). A full replay of a million
     * records read an empty subject record that way once the cache had evicted such blocks.
     */
    byte[] written(byte[] key, boolean probe) {
        guard.enter();
        try {
            if (BodyFile.covers(key)) {
                byte[] body = bodies.read(key);
                if (body != null) {
                    return body;
                }
            }
            return !probe || db.keyMayExist(key, (Holder<byte[]>) null) ? db.get(key) : null;
        } catch (RocksDBException e) {
            throw new ProcessorStateException("view read failed", e);
        } finally {
            guard.leave();
        }
    }

    /**
     * Entries from {@code from} (null: the first) to {@code toInclusive} (null: the last) whose keys
     * start with {@code prefix} (null: any). An iterator counts as a read in progress until it is
     * closed. It merges the pending layers, taken first, with a RocksDB iterator taken after them
     * (see {@link GroupWriter#pending}); pending values win, pending deletes hide.
     */
    KeyValueIterator<Bytes, byte[]> iterator(byte[] from, byte[] toInclusive, byte[] prefix) {
        PendingLayer layer = groups.pending();
        PendingLayer older = groups.writing();
        AbsentKeys usages = filters.usages(); // read after the layers, as in get
        if (prefix != null && toInclusive == null && Arrays.equals(from, prefix) && usages != null
                && Keys.isSubjectUsages(prefix) && !usages.mayContain(prefix)) {
            // never written, so not in RocksDB: at most a delete in the layers
            guard.check();
            return new StoreIterators.Listed(PendingLayer.merged(layer.sortedRange(from, null, prefix),
                    older == null ? List.of() : older.sortedRange(from, null, prefix)).iterator());
        }
        guard.enter();
        try {
            StoreIterators.Iter written = new StoreIterators.Iter(db.newIterator(), from, toInclusive, prefix,
                    guard::leave);
            List<Map.Entry<Bytes, byte[]>> part = PendingLayer.merged(layer.sortedRange(from, toInclusive, prefix),
                    older == null ? List.of() : older.sortedRange(from, toInclusive, prefix));
            if (part.isEmpty()) {
                return written;
            }
            return new StoreIterators.Merged(part.iterator(), written);
        } catch (RuntimeException e) {
            guard.leave();
            throw e;
        }
    }
}
