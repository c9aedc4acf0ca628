package io.quire.node.service;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * Where the n-th entry of a list is, remembered from earlier scans of it, so that a page at
 * {@code offset} seeks close to its start instead of counting every entry before it. A list is
 * named by its {@link Shape}; its points hold for one count of writes ({@link
 * io.quire.journal.view.SubjectScans#subjectWrites}): once the count moves, the list may have
 * changed and its points are dropped. A scan leaves a point every {@link #STRIDE} entries and
 * one where its page ended, so walking a list page by page costs each page its own size, and
 * any offset is at most {@code STRIDE} entries past a point once the list has been walked.
 * Bounded in bytes; the lists used least recently go first.
 *
 * @param <P> what a point holds: enough to start a scan at that entry
 */
final class ResumePoints<P> {

    static final int STRIDE = 1_000;

    /**
     * One list: which endpoint, its filters, and what the caller may see ({@code visibility}:
     * anything with equals, such as the subject prefixes a principal is limited to).
     */
    record Shape(String list, String prefix, String flags, Object visibility) {
    }

    /** A point: the entry at {@code offset} of the list, and where it is. */
    record Point<P>(int offset, P at) {
    }

    private static final class Points<P> {
        final long writes;
        final TreeMap<Integer, P> byOffset = new TreeMap<>();
        long bytes;

        Points(long writes) {
            this.writes = writes;
        }
    }

    private final long maxBytes;
    private final ToIntFunction<P> sizeOf;
    private final LinkedHashMap<Shape, Points<P>> lists = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    /** @param sizeOf roughly how many bytes a point takes in memory */
    ResumePoints(long maxBytes, ToIntFunction<P> sizeOf) {
        this.maxBytes = maxBytes;
        this.sizeOf = sizeOf;
    }

    /** The last point at or before {@code offset} of the list as it is at {@code writes}, or null. */
    synchronized Point<P> floor(Shape shape, long writes, int offset) {
        Points<P> p = lists.get(shape);
        if (p == null || p.writes != writes) {
            return null;
        }
        Map.Entry<Integer, P> e = p.byOffset.floorEntry(offset);
        return e == null ? null : new Point<>(e.getKey(), e.getValue());
    }

    /**
     * Remembers that the entry at {@code offset} of the list as it was at {@code writes} is
     * {@code at}. Points of an older count are replaced; a point older than those held is ignored.
     */
    synchronized void remember(Shape shape, long writes, int offset, P at) {
        if (writes < 0) {
            return;
        }
        Points<P> p = lists.get(shape);
        if (p != null && p.writes > writes) {
            return;
        }
        if (p == null || p.writes < writes) {
            if (p != null) {
                bytes -= p.bytes;
            }
            p = new Points<>(writes);
            lists.put(shape, p);
        }
        int size = sizeOf.applyAsInt(at) + 48;
        P before = p.byOffset.put(offset, at);
        if (before != null) {
            size -= sizeOf.applyAsInt(before) + 48;
        }
        p.bytes += size;
        bytes += size;
        evict(shape);
    }

    private void evict(Shape keep) {
        Iterator<Map.Entry<Shape, Points<P>>> it = lists.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<Shape, Points<P>> e = it.next();
            if (e.getKey().equals(keep)) {
                continue;
            }
            bytes -= e.getValue().bytes;
            it.remove();
        }
        if (bytes > maxBytes) {
            // One list alone is over the bound: keep its first points, drop the rest.
            Points<P> p = lists.get(keep);
            while (bytes > maxBytes && p != null && !p.byOffset.isEmpty()) {
                Map.Entry<Integer, P> last = p.byOffset.pollLastEntry();
                int size = sizeOf.applyAsInt(last.getValue()) + 48;
                p.bytes -= size;
                bytes -= size;
            }
        }
    }

    synchronized long bytes() {
        return bytes;
    }

    synchronized int lists() {
        return lists.size();
    }
}
