package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes one command makes, in order, applied by the store as one atomic batch together with
 * the new position. A null value deletes the key. A key written twice is one entry: in the place
 * of its first write, with its last value.
 */
public final class Changes {

    /** One write; {@code value} null means delete. */
    public record Entry(byte[] key, byte[] value) {
    }

    /**
     * Below this many writes the entries are deduplicated by comparing keys pairwise (a
     * registration writes about a dozen); above it through a hash map. A registration paid more
     * for hashing its keys into a map than for anything else it wrote.
     */
    private static final int PAIRWISE = 32;

    private final List<Entry> writes = new ArrayList<>(16);
    /**
     * Derived entries: the search index's bundles ({@link SearchIndex#BUNDLE}), which the store
     * expands into the index's keys (or keeps, to file later), in the order they came. Kept apart
     * from the command's own writes: they are never read back by the command, never deleted, and
     * each bundle is its own (two steps of one change set may each file one).
     */
    private List<Entry> derived;

    public Changes put(byte[] key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("use delete() to remove a key");
        }
        writes.add(new Entry(key, value));
        return this;
    }

    public Changes delete(byte[] key) {
        writes.add(new Entry(key, null));
        return this;
    }

    /** A derived entry (see {@link #derived}): put after the command's other writes, not deduplicated. */
    public Changes putDerived(byte[] key, byte[] value) {
        if (derived == null) {
            derived = new ArrayList<>(2); // a bundle per new content and per new subject
        }
        derived.add(new Entry(key, value));
        return this;
    }

    /** Appends another batch's writes after these, in their order. */
    public Changes putAll(Changes other) {
        writes.addAll(other.writes);
        if (other.derived != null) {
            for (Entry e : other.derived) {
                putDerived(e.key(), e.value());
            }
        }
        return this;
    }

    /**
     * One entry per key written, in the order keys were first written, each with its last value;
     * then the derived entries, in their order.
     */
    public List<Entry> entries() {
        List<Entry> out = ownEntries();
        if (derived != null) {
            out.addAll(derived);
        }
        return out;
    }

    /** The derived entries ({@link #putDerived}), in their order; empty for none. */
    public List<Entry> derivedEntries() {
        return derived == null ? List.of() : derived;
    }

    /** {@link #entries} without the derived ones. */
    public List<Entry> ownEntries() {
        int n = writes.size();
        if (n > PAIRWISE) {
            Map<ByteBuffer, Entry> byKey = new LinkedHashMap<>();
            for (Entry e : writes) {
                byKey.put(ByteBuffer.wrap(e.key()), e);
            }
            return new ArrayList<>(byKey.values());
        }
        List<Entry> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Entry e = writes.get(i);
            if (writtenBefore(i, e.key())) {
                continue;
            }
            for (int j = n - 1; j > i; j--) {
                if (Arrays.equals(writes.get(j).key(), e.key())) {
                    e = new Entry(e.key(), writes.get(j).value());
                    break;
                }
            }
            out.add(e);
        }
        return out;
    }

    private boolean writtenBefore(int i, byte[] key) {
        for (int j = 0; j < i; j++) {
            if (Arrays.equals(writes.get(j).key(), key)) {
                return true;
            }
        }
        return false;
    }

    /** The number of keys written. */
    public int size() {
        return entries().size();
    }
}
