package io.quire.node.view.store;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * Per first byte of a key, how many commands have written under it, counted from a base of this
 * store's own (so two stores never share a count): readers that remember where the n-th entry of
 * a list was can tell whether the list may have changed since.
 */
final class WriteCounts {

    private static final AtomicLong INSTANCES = new AtomicLong();

    private final AtomicLongArray byPrefix = new AtomicLongArray(256);
    private final long base = INSTANCES.incrementAndGet() << 40;

    /**
     * One command's writes: each first byte among their keys counts once. Counted after the
     * entries are visible, so a reader that reads a count first sees them or a later count.
     */
    void count(List<KeyValue<Bytes, byte[]>> entries) {
        long seen0 = 0;
        long seen1 = 0;
        long seen2 = 0;
        long seen3 = 0;
        for (KeyValue<Bytes, byte[]> e : entries) {
            byte[] k = e.key.get();
            int b = k.length == 0 ? 0 : k[0] & 0xff;
            long bit = 1L << (b & 63);
            switch (b >> 6) {
                case 0 -> seen0 |= bit;
                case 1 -> seen1 |= bit;
                case 2 -> seen2 |= bit;
                default -> seen3 |= bit;
            }
        }
        countPrefixes(0, seen0);
        countPrefixes(64, seen1);
        countPrefixes(128, seen2);
        countPrefixes(192, seen3);
    }

    private void countPrefixes(int offset, long bits) {
        while (bits != 0) {
            int i = Long.numberOfTrailingZeros(bits);
            byPrefix.incrementAndGet(offset + i);
            bits &= bits - 1;
        }
    }

    /**
     * A number that grows whenever a command writes an entry whose key starts with {@code prefix};
     * equal numbers from one store mean no such write happened in between.
     */
    long under(byte prefix) {
        return base + byPrefix.get(prefix & 0xff);
    }
}
