package io.quire.node.view.store;

import org.rocksdb.CompressionType;

/**
 * RocksDB's memory and files: one budget for the block cache, which also holds index and
 * filter blocks and is charged with the memtables (at most half of it, in buffers of a
 * quarter); and the compression of the files.
 */
public record Tuning(long memoryBytes, CompressionType compression) {

    public static final Tuning DEFAULT = new Tuning(256L << 20, CompressionType.NO_COMPRESSION);

    public static Tuning of(int memoryMib, String compression) {
        CompressionType type = switch (compression) {
            case "none" -> CompressionType.NO_COMPRESSION;
            case "lz4" -> CompressionType.LZ4_COMPRESSION;
            case "snappy" -> CompressionType.SNAPPY_COMPRESSION;
            case "zstd" -> CompressionType.ZSTD_COMPRESSION;
            default -> throw new IllegalArgumentException("unknown compression " + compression);
        };
        return new Tuning((long) memoryMib << 20, type);
    }
}
