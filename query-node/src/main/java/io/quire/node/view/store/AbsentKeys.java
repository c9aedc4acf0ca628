package io.quire.node.view.store;

import java.nio.ByteBuffer;

/**
 * A blocked Bloom filter of the keys of a few kinds that the view store has written since it
 * was opened empty: a point read of such a kind that the filter has never seen is answered
 * "absent" without asking RocksDB. The applier reads a content's fingerprint (absent for every
 * new schema) and a subject (absent for every new subject) for each registration; in RocksDB
 * each such miss walks the memtables' and every file's filters through JNI. A store that was
 * empty when opened starts with empty filters; any other store builds them in the background
 * from its keys ({@code ViewStore.buildFilters}) and reads without them until they hold every key.
 *
 * <p>One cache line (512 bits) per key, six bits set in it. Written under the store's write lock
 * (by the applying thread before the key's group is handed to the writer, or by the builder),
 * read by any thread after it has read the store's pending layers (volatile), which are replaced
 * only after the bits are set. Past its
 * capacity the filter answers "may exist" for everything, so its memory is fixed whatever the
 * data.
 */
final class AbsentKeys {

    private static final int WORDS_PER_BLOCK = 8;
    private static final int BITS_PER_KEY = 10;

    private final long[] words;
    private final int blocks;
    private final long capacity;
    private final boolean[] kinds = new boolean[256];
    private long added;
    private volatile boolean saturated;

    /** A filter of {@code bytes} (rounded to whole cache lines) for keys whose first byte is one of {@code kinds}. */
    AbsentKeys(long bytes, byte... kinds) {
        this.blocks = (int) Math.max(1, Math.min(Integer.MAX_VALUE / WORDS_PER_BLOCK, bytes / 64));
        this.words = new long[blocks * WORDS_PER_BLOCK];
        this.capacity = (long) blocks * 512 / BITS_PER_KEY;
        for (byte k : kinds) {
            this.kinds[k & 0xff] = true;
        }
    }

    /** Whether the filter answers for {@code key}'s kind at all. */
    boolean covers(byte[] key) {
        return key.length > 0 && kinds[key[0] & 0xff] && !saturated;
    }

    /** Records a key written (applying thread only); keys of other kinds are ignored. */
    void add(byte[] key) {
        if (covers(key)) {
            add(key, KeyHash.of(key));
        }
    }

    /** {@link #add(byte[])} with the key's {@link KeyHash} already taken. */
    void add(byte[] key, long h) {
        if (!covers(key) || mayContain(key, h)) {
            return; // a subject's key is written again with each version: counted once
        }
        if (++added > capacity) {
            saturated = true;
            return;
        }
        int base = block(h);
        for (int i = 0; i < 6; i++) {
            int bit = (int) (h >>> (i * 9)) & 511;
            words[base + (bit >>> 6)] |= 1L << (bit & 63);
        }
    }

    /** Whether more keys were added than it holds: it then answers "may exist" for everything. */
    boolean saturated() {
        return saturated;
    }

    /** False only when {@code key} (of a covered kind) was certainly never added. */
    boolean mayContain(byte[] key) {
        return !covers(key) || mayContain(key, KeyHash.of(key));
    }

    /** {@link #mayContain(byte[])} with the key's {@link KeyHash} already taken. */
    boolean mayContain(byte[] key, long h) {
        if (!covers(key)) {
            return true;
        }
        int base = block(h);
        for (int i = 0; i < 6; i++) {
            int bit = (int) (h >>> (i * 9)) & 511;
            if ((words[base + (bit >>> 6)] & (1L << (bit & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The filter as bytes (its size, kinds, count and bits), for {@link FilterFile}; the caller
     * holds the store's write lock, so no key is added meanwhile.
     */
    byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(HEADER + words.length * Long.BYTES);
        b.putInt(blocks);
        for (boolean k : kinds) {
            b.put((byte) (k ? 1 : 0));
        }
        b.putLong(added);
        b.put((byte) (saturated ? 1 : 0));
        b.asLongBuffer().put(words);
        return b.array();
    }

    /** Bytes of {@link #toBytes} before the bits. */
    static final int HEADER = Integer.BYTES + 256 + Long.BYTES + 1;

    /**
     * Reads into this (empty) filter what {@link #toBytes} gave, from {@code b}'s position on;
     * false, leaving it unusable, when that was a filter of another size or other kinds, or a
     * saturated one.
     */
    boolean readFrom(ByteBuffer b) {
        if (b.remaining() < HEADER + (long) words.length * Long.BYTES || b.getInt() != blocks) {
            return false;
        }
        for (boolean k : kinds) {
            if ((b.get() != 0) != k) {
                return false;
            }
        }
        long count = b.getLong();
        if (b.get() != 0 || count < 0 || count > capacity) {
            return false;
        }
        added = count;
        b.asLongBuffer().get(words);
        b.position(b.position() + words.length * Long.BYTES);
        return true;
    }

    private int block(long h) {
        long g = h * 0x9E3779B97F4A7C15L; // the in-block bits come from h's low bits; the block from all of them
        return (int) (((g >>> 32) * blocks) >>> 32) * WORDS_PER_BLOCK;
    }
}
