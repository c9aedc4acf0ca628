package io.quire.journal.view;

/**
 * The read side of the byte store the view lives in (RocksDB on a node, a sorted map in tests and
 * offline rebuilds). Keys are compared as unsigned bytes.
 */
public interface KvReader {

    /** The value under {@code key}, or null. */
    byte[] get(byte[] key);

    /** Visits the entries whose keys start with {@code prefix}, ascending, until the visitor says stop. */
    void scan(byte[] prefix, KvVisitor visitor);

    /**
     * As {@link #scan}, from the first key at or after {@code start} (which starts with
     * {@code prefix}): a store seeks there instead of walking the entries before it. This default
     * walks them; the stores override it.
     */
    default void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
        scan(prefix, (k, v) -> java.util.Arrays.compareUnsigned(k, start) < 0 || visitor.visit(k, v));
    }

    /**
     * A number that grows whenever an entry whose key starts with the byte {@code prefix} is
     * written; the same number twice means no such write in between. -1: this store does not count.
     */
    default long writesUnder(byte prefix) {
        return -1;
    }

    @FunctionalInterface
    interface KvVisitor {
        /** @return true to go on, false to stop */
        boolean visit(byte[] key, byte[] value);
    }
}
