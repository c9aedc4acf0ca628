package io.quire.ids;

/**
 * A half-open range of schema ids {@code [start, start + size)} granted to one node.
 */
public record IdBlock(long start, int size) {

    public IdBlock {
        if (start < 1) {
            throw new IllegalArgumentException("block start must be >= 1, was " + start);
        }
        if (size < 1) {
            throw new IllegalArgumentException("block size must be >= 1, was " + size);
        }
    }

    /** First id after the block. */
    public long end() {
        return start + size;
    }

    public boolean contains(long id) {
        return id >= start && id < end();
    }
}
