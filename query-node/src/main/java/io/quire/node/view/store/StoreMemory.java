package io.quire.node.view.store;

/** What RocksDB's memory of the view holds, read when asked ({@link ViewStore#memory}). */
public enum StoreMemory {
    /** Everything charged to the block cache: data, index and filter blocks, and the memtables. */
    BLOCK_CACHE,
    /** The part of the block cache that cannot be evicted now (pinned by readers or by level 0). */
    PINNED,
    /** The memtables (charged to the block cache through the write buffer manager). */
    MEMTABLES,
    /** Table readers outside the cache (index and filter blocks are in it; see {@link ViewRocks#open}). */
    TABLE_READERS
}
