package io.quire.node.service;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recently used entries, bounded by an estimate of the memory they hold rather than by their
 * number: each entry is put with its weight, and the least recently used go once the weights add
 * up to more than the budget (the newest entry stays even when it alone is heavier). Safe for
 * several threads: one lock, held for a map operation.
 */
final class WeighedLru<K, V> {

    private record Weighed<V>(V value, long weight) {
    }

    private final Map<K, Weighed<V>> map = new LinkedHashMap<>(256, 0.75f, true); // access order
    private final long budget;
    private long bytes;

    WeighedLru(long budget) {
        this.budget = budget;
    }

    /** The value kept for {@code key}, or null; counts as a use. */
    synchronized V get(K key) {
        Weighed<V> w = map.get(key);
        return w == null ? null : w.value();
    }

    synchronized void put(K key, V value, long weight) {
        Weighed<V> old = map.put(key, new Weighed<>(value, weight));
        bytes += weight - (old == null ? 0 : old.weight());
        Iterator<Weighed<V>> eldest = map.values().iterator();
        while (bytes > budget && map.size() > 1 && eldest.hasNext()) {
            bytes -= eldest.next().weight();
            eldest.remove();
        }
    }

    /** Forgets {@code key}, if kept. */
    synchronized void remove(K key) {
        Weighed<V> old = map.remove(key);
        if (old != null) {
            bytes -= old.weight();
        }
    }

    /** The weights of the entries kept now. */
    synchronized long bytes() {
        return bytes;
    }

    synchronized int size() {
        return map.size();
    }
}
