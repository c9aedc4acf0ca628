package io.quire.node.view.store;

/**
 * A group of writes laid out as RocksDB's own write batch representation, so the whole group
 * crosses into RocksDB in one call ({@code new WriteBatch(byte[])}) instead of one JNI call per
 * key: on a full replay nearly all of the view writer's samples in Java were per-key
 * {@code WriteBatch.put} calls.
 *
 * <p>The layout is the one {@code db/write_batch.cc} documents and {@code WriteBatch.data()}
 * returns: a fixed64 sequence number (0: RocksDB assigns it), a fixed32 count, then per entry a
 * type byte ({@code kTypeValue} 0x1, {@code kTypeMerge} 0x2 or {@code kTypeDeletion} 0x0) and the key, and for a value its
 * bytes, each as a varint32 length followed by the bytes (all integers little-endian).
 * {@code BatchImageTest} holds it to what RocksJava's own {@code put} and {@code delete} build.
 */
final class BatchImage {

    private static final byte TYPE_DELETION = 0x0;
    private static final byte TYPE_VALUE = 0x1;
    private static final byte TYPE_MERGE = 0x2;
    private static final int HEADER = 12;

    private final byte[] bytes;
    private int at = HEADER;
    private int count;

    private BatchImage(int size) {
        bytes = new byte[size];
    }

    /** The batch of {@code keys[i]} set to {@code values[i]} (null: deleted), in that order. */
    static byte[] of(byte[][] keys, byte[][] values) {
        return of(keys, values, null);
    }

    /** As {@link #of(byte[][], byte[][])}; where {@code merges[i]}, {@code values[i]} is merged into the key ({@code kTypeMerge}). */
    static byte[] of(byte[][] keys, byte[][] values, boolean[] merges) {
        long size = HEADER;
        for (int i = 0; i < keys.length; i++) {
            size += 1 + varintSize(keys[i].length) + keys[i].length
                    + (values[i] == null ? 0 : varintSize(values[i].length) + values[i].length);
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a write batch of " + size + " bytes is too large");
        }
        BatchImage image = new BatchImage((int) size);
        for (int i = 0; i < keys.length; i++) {
            image.add(keys[i], values[i], merges != null && merges[i]);
        }
        image.writeCount();
        return image.bytes;
    }

    private void add(byte[] key, byte[] value, boolean merge) {
        bytes[at++] = value == null ? TYPE_DELETION : merge ? TYPE_MERGE : TYPE_VALUE;
        slice(key);
        if (value != null) {
            slice(value);
        }
        count++;
    }

    private void slice(byte[] b) {
        int n = b.length;
        while ((n & ~0x7f) != 0) {
            bytes[at++] = (byte) ((n & 0x7f) | 0x80);
            n >>>= 7;
        }
        bytes[at++] = (byte) n;
        System.arraycopy(b, 0, bytes, at, b.length);
        at += b.length;
    }

    private void writeCount() {
        bytes[8] = (byte) count;
        bytes[9] = (byte) (count >>> 8);
        bytes[10] = (byte) (count >>> 16);
        bytes[11] = (byte) (count >>> 24);
    }

    private static int varintSize(int n) {
        int size = 1;
        while ((n & ~0x7f) != 0) {
            n >>>= 7;
            size++;
        }
        return size;
    }
}
