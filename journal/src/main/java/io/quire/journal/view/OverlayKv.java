package io.quire.journal.view;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A store as it would be after some writes not made yet: reads see {@link #apply applied} changes
 * over the store below, scans merge the two in key order. The applier decides each step of a
 * change set over the steps before it this way, and the edge builds the steps the same way; nothing
 * reaches the store below unless the whole set is accepted.
 */
public final class OverlayKv implements KvReader {

    /** A delete (compared by identity). */
    private static final byte[] DELETED = new byte[0];

    private final KvReader below;
    private final NavigableMap<byte[], byte[]> pending = new TreeMap<>(Arrays::compareUnsigned);

    public OverlayKv(KvReader below) {
        this.below = below;
    }

    /**
     * Lays {@code changes} over what is read already: their own entries, not the derived ones (the
     * search index's), which nothing that reads an overlay (the applier's rules) reads.
     */
    public void apply(Changes changes) {
        for (Changes.Entry e : changes.ownEntries()) {
            pending.put(e.key(), e.value() == null ? DELETED : e.value());
        }
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] v = pending.get(key);
        if (v != null) {
            return v == DELETED ? null : v;
        }
        return below.get(key);
    }

    @Override
    public void scan(byte[] prefix, KvVisitor visitor) {
        scanFrom(prefix, prefix, visitor);
    }

    @Override
    public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
        Iterator<Map.Entry<byte[], byte[]>> over = pending.tailMap(start, true).entrySet().iterator();
        Merge merge = new Merge(prefix, over, visitor);
        below.scanFrom(prefix, start, merge::visitBelow);
        if (!merge.stopped) {
            merge.drain(null);
        }
    }

    /** Walks the store's entries and the pending ones together, the pending one winning on a tie. */
    private static final class Merge {
        private final byte[] prefix;
        private final Iterator<Map.Entry<byte[], byte[]>> over;
        private final KvVisitor visitor;
        private Map.Entry<byte[], byte[]> next;
        boolean stopped;

        Merge(byte[] prefix, Iterator<Map.Entry<byte[], byte[]>> over, KvVisitor visitor) {
            this.prefix = prefix;
            this.over = over;
            this.visitor = visitor;
            advance();
        }

        private void advance() {
            next = null;
            if (over.hasNext()) {
                Map.Entry<byte[], byte[]> e = over.next();
                if (InMemoryKv.startsWith(e.getKey(), prefix)) {
                    next = e;
                }
            }
        }

        /** Visits the pending entries before {@code upTo} (all of them when null); false once the visitor stopped. */
        boolean drain(byte[] upTo) {
            while (next != null && (upTo == null || Arrays.compareUnsigned(next.getKey(), upTo) < 0)) {
                Map.Entry<byte[], byte[]> e = next;
                advance();
                if (e.getValue() != DELETED && !visitor.visit(e.getKey(), e.getValue())) {
                    stopped = true;
                    return false;
                }
            }
            return true;
        }

        boolean visitBelow(byte[] key, byte[] value) {
            if (!drain(key)) {
                return false;
            }
            if (next != null && Arrays.equals(next.getKey(), key)) {
                Map.Entry<byte[], byte[]> e = next;
                advance();
                if (e.getValue() == DELETED) {
                    return true;
                }
                value = e.getValue();
            }
            if (!visitor.visit(key, value)) {
                stopped = true;
                return false;
            }
            return true;
        }
    }
}
