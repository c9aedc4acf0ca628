package io.quire.node.view.store;

import io.quire.journal.view.Changes;
import io.quire.journal.view.SearchIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * One group of the view store's pending writes (docs/adr/0011-group-commit.md): the newest value
 * per key, written by one thread, read by any. Point reads and puts are hash lookups. A kind of
 * key (its first byte) is kept in key order as well only once a scan has asked for that kind in
 * this group: a full replay never scans, so it never pays for sorting, while under registration
 * load the kinds the edge scans (a subject's versions) are sorted from the first scan on, and
 * each later scan seeks its range (log n) and reads only it.
 *
 * <p>Keys are never removed (a delete is {@link #TOMBSTONE}), so a key found in a sorted kind
 * always has its value in the map; the map is written before the sorted set, so a reader that
 * finds the key finds its value.
 */
final class PendingLayer {

    /** A delete (compared by identity, never a stored value). */
    static final byte[] TOMBSTONE = new byte[0];

    private static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    private final ConcurrentHashMap<Key, Slot> entries;
    /** Per kind, its keys in order once a scan asked for them; null until then. */
    private final AtomicReferenceArray<ConcurrentSkipListSet<byte[]>> sorted = new AtomicReferenceArray<>(256);
    /** Per kind, its entries in the order their keys were first put (under this layer's monitor); null for none. */
    @SuppressWarnings("unchecked")
    private final ArrayList<Slot>[] added = new ArrayList[256];
    /** Per kind, 1 once a key of it is pending. */
    private final AtomicIntegerArray present = new AtomicIntegerArray(256);
    /**
     * Per kind, derived entries (the search index's, {@link #addDerived}) in the order they came;
     * null for none. They are written with the group and never read from here: a reader of the
     * index first has the pending groups written ({@link ViewStore#settle}).
     */
    @SuppressWarnings("unchecked")
    private final ArrayList<Changes.Entry>[] derived = new ArrayList[256];
    private int derivedCount;
    private volatile boolean empty = true;

    /** A layer sized for {@code expectedKeys} (the last group's count), so a group does not grow its map as it fills. */
    PendingLayer(int expectedKeys) {
        entries = new ConcurrentHashMap<>(Math.max(16, expectedKeys));
    }

    /** The key's pending value ({@link #TOMBSTONE} for a delete), or null; {@code hash} is its {@link KeyHash} (a reader asks several layers and a filter with one). */
    byte[] get(byte[] key, long hash) {
        if (empty) {
            return null;
        }
        Slot slot = entries.get(new Key(key, hash));
        return slot == null ? null : slot.value;
    }

    /**
     * One command's writes (the applying thread only): a null value is a delete. {@code hashes[i]}
     * is the {@link KeyHash} of the i-th key (the store's filters take the same).
     */
    synchronized void putAll(List<KeyValue<Bytes, byte[]>> writes, long[] hashes) {
        for (int i = 0; i < writes.size(); i++) {
            KeyValue<Bytes, byte[]> e = writes.get(i);
            byte[] value = e.value == null ? TOMBSTONE : e.value;
            Slot slot = new Slot(e.key.get(), value);
            Slot earlier = entries.putIfAbsent(new Key(slot.key, hashes[i]), slot);
            if (earlier != null) {
                earlier.value = value; // a key written again in this group: its newest value
            } else {
                int kind = kindOf(e.key.get());
                if (added[kind] == null) {
                    added[kind] = new ArrayList<>();
                    present.set(kind, 1);
                }
                added[kind].add(slot);
                ConcurrentSkipListSet<byte[]> keys = sorted.get(kind);
                if (keys != null) {
                    keys.add(slot.key);
                }
            }
        }
        empty = false;
    }

    /**
     * A command's derived entries (the applying thread only): no map, no sorted set. The group's
     * write has them in key order: a posting list's operands of the group joined into one, in the
     * order they came ({@link SearchIndex#append}); another key put twice, once (its values are equal).
     * Answers their size, for the group's.
     */
    synchronized long addDerived(List<Changes.Entry> writes) {
        long bytes = 0;
        for (Changes.Entry e : writes) {
            bytes += e.key().length + e.value().length + 16;
            int kind = kindOf(e.key());
            if (derived[kind] == null) {
                derived[kind] = new ArrayList<>();
            }
            derived[kind].add(e);
        }
        derivedCount += writes.size();
        empty = false;
        return bytes;
    }

    boolean isEmpty() {
        return empty;
    }

    int size() {
        return entries.size() + derivedCount;
    }

    /**
     * Every entry in key order, for the writer's batch, once no more puts come (a delete's value
     * is null): RocksDB inserts a batch into its memtable in the batch's order, and inserts in key
     * order reuse the skip list's last position (docs/adr/0015-replay-cpu-on-two-cores.md). Each
     * kind is sorted from its order of arrival, which for offsets and counters is already key order.
     */
    synchronized Sorted sorted() {
        int n = derivedCount;
        for (ArrayList<Slot> kind : added) {
            n += kind == null ? 0 : kind.size();
        }
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        boolean[] merges = new boolean[n];
        int at = 0;
        for (int k = 0; k < added.length; k++) {
            if (added[k] != null) {
                at = placeInOrder(added[k], keys, values, at);
            }
            if (derived[k] != null) {
                at = placeDerived(derived[k], keys, values, merges, at);
            }
        }
        return at == n ? new Sorted(keys, values, merges)
                : new Sorted(Arrays.copyOf(keys, at), Arrays.copyOf(values, at), Arrays.copyOf(merges, at));
    }

    /**
     * One kind's derived entries at {@code at} in key order, each key once: a posting list's
     * operands joined in the order they came (a merge), another key's value put; the position after.
     */
    private static int placeDerived(ArrayList<Changes.Entry> entries, byte[][] keys, byte[][] values,
                                    boolean[] merges, int at) {
        // Grouped by key first (most of a group's entries are a few common terms' lists), then
        // only the distinct keys sorted: a group of a replay holds tens of thousands of entries.
        HashMap<Key, Run> runs = new HashMap<>(entries.size() * 2);
        List<Run> distinct = new ArrayList<>();
        for (Changes.Entry e : entries) {
            Key key = new Key(e.key(), Arrays.hashCode(e.key()));
            Run run = runs.get(key);
            if (run == null) {
                run = new Run(e.key());
                runs.put(key, run);
                distinct.add(run);
            }
            run.add(e.value());
        }
        distinct.sort((x, y) -> Arrays.compareUnsigned(x.key, y.key));
        for (Run run : distinct) {
            boolean merge = SearchIndex.isAppend(run.key);
            keys[at] = run.key;
            values[at] = merge ? run.joined() : run.last; // a key put twice: its values are equal
            merges[at++] = merge;
        }
        return at;
    }

    /** One key's derived values in a group, in the order they came. */
    private static final class Run {
        final byte[] key;
        byte[] last;
        private List<byte[]> values;
        private int length;

        Run(byte[] key) {
            this.key = key;
        }

        void add(byte[] value) {
            if (last != null) {
                if (values == null) {
                    values = new ArrayList<>();
                    values.add(last);
                }
                values.add(value);
            }
            length += value.length;
            last = value;
        }

        /** The values joined as the merge operator joins operands ({@link SearchIndex#append}), in one pass. */
        byte[] joined() {
            if (values == null) {
                return last;
            }
            byte[] out = new byte[length];
            int p = 0;
            for (byte[] v : values) {
                System.arraycopy(v, 0, out, p, v.length);
                p += v.length;
            }
            return out;
        }
    }

    /**
     * A group's entries in key order: {@code values[i]} is the value of {@code keys[i]}, null for a
     * delete, or an operand to append when {@code merges[i]}.
     */
    record Sorted(byte[][] keys, byte[][] values, boolean[] merges) {
    }

    /**
     * Puts one kind's entries at {@code at} in key order ({@link KeyOrder}) and returns the
     * position after them. A kind that arrived in key order (offsets, counters) is copied as it is.
     */
    private static int placeInOrder(ArrayList<Slot> slots, byte[][] keys, byte[][] values, int at) {
        int n = slots.size();
        boolean arrivedInOrder = true;
        for (int i = 1; i < n && arrivedInOrder; i++) {
            arrivedInOrder = Arrays.compareUnsigned(slots.get(i - 1).key, slots.get(i).key) < 0;
        }
        int[] order = null;
        if (!arrivedInOrder) {
            byte[][] kindKeys = new byte[n][];
            for (int i = 0; i < n; i++) {
                kindKeys[i] = slots.get(i).key;
            }
            order = KeyOrder.order(kindKeys);
        }
        for (int i = 0; i < n; i++) {
            Slot slot = slots.get(order == null ? i : order[i]);
            keys[at] = slot.key;
            byte[] v = slot.value;
            values[at++] = v == TOMBSTONE ? null : v;
        }
        return at;
    }

    /**
     * A key's entry: its newest value in this group. The applying thread replaces the value of a
     * key written again; readers on other threads see the newest one written (volatile). The entry
     * also keeps the view writer's batch ({@link #sorted}) from looking each key up again in the map.
     */
    private static final class Slot {

        private final byte[] key;
        private volatile byte[] value;

        Slot(byte[] key, byte[] value) {
            this.key = key;
            this.value = value;
        }
    }

    private static int kindOf(byte[] key) {
        return key.length == 0 ? 0 : key[0] & 0xff;
    }

    /** The keys of one kind in order, sorting them now if no scan asked for that kind before. */
    private ConcurrentSkipListSet<byte[]> sortedKind(int kind) {
        ConcurrentSkipListSet<byte[]> keys = sorted.get(kind);
        if (keys != null) {
            return keys;
        }
        synchronized (this) { // no put runs while the kind is filled, and every later put adds to it
            keys = sorted.get(kind);
            if (keys == null) {
                keys = new ConcurrentSkipListSet<>(ORDER);
                if (added[kind] != null) {
                    for (Slot slot : added[kind]) {
                        keys.add(slot.key);
                    }
                }
                sorted.set(kind, keys);
            }
            return keys;
        }
    }

    /** Two sorted ranges as one, {@code newer}'s value kept where both have a key. */
    static List<Map.Entry<Bytes, byte[]>> merged(List<Map.Entry<Bytes, byte[]>> newer,
                                                List<Map.Entry<Bytes, byte[]>> older) {
        if (older.isEmpty()) {
            return newer;
        }
        TreeMap<Bytes, byte[]> both = new TreeMap<>();
        older.forEach(e -> both.put(e.getKey(), e.getValue()));
        newer.forEach(e -> both.put(e.getKey(), e.getValue()));
        return new ArrayList<>(both.entrySet());
    }

    /** The entries with keys from {@code from} (inclusive) within the range, ascending; deletes as {@link #TOMBSTONE}. */
    List<Map.Entry<Bytes, byte[]>> sortedRange(byte[] from, byte[] toInclusive, byte[] prefix) {
        if (empty) {
            return List.of();
        }
        byte[] start = from;
        if (prefix != null && (start == null || Arrays.compareUnsigned(prefix, start) > 0)) {
            start = prefix;
        }
        int first = start == null || start.length == 0 ? 0 : start[0] & 0xff;
        int last = prefix != null && prefix.length > 0 ? prefix[0] & 0xff
                : toInclusive != null && toInclusive.length > 0 ? toInclusive[0] & 0xff : 255;
        List<Map.Entry<Bytes, byte[]>> out = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            if (!hasKind(i)) {
                continue;
            }
            ConcurrentSkipListSet<byte[]> keys = sortedKind(i);
            NavigableSet<byte[]> range = start == null || i > first ? keys : keys.tailSet(start, true);
            for (byte[] k : range) {
                if (!KeyRange.inRange(k, toInclusive, prefix)) {
                    break; // sorted: every later key is past the range too
                }
                out.add(Map.entry(Bytes.wrap(k), entries.get(new Key(k, KeyHash.of(k))).value));
            }
        }
        return out;
    }

    /** Whether a key of this kind is pending: a kind without keys is never sorted. */
    private boolean hasKind(int kind) {
        return present.get(kind) != 0;
    }

    /** A key in the layer's map, with its {@link KeyHash} taken once. */
    private static final class Key {

        private final byte[] bytes;
        private final int hash;

        Key(byte[] bytes, long h) {
            this.bytes = bytes;
            this.hash = (int) (h ^ (h >>> 32));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
