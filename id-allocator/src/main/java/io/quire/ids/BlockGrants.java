package io.quire.ids;

/**
 * The grant rule the journal applier uses: blocks are handed out in journal order from a single
 * watermark, so every node that replays the same journal grants the same blocks, each exactly once.
 * Pure arithmetic; no state of its own.
 */
public final class BlockGrants {

    /** The first id of an empty registry. Confluent registries start at 1 as well. */
    public static final long FIRST_ID = 1;
    /** The largest block one lease may ask for. */
    public static final int MAX_BLOCK_SIZE = 1_000_000;
    /** Ids stay within a signed 32-bit int: Confluent's wire format has 4 bytes for the id. */
    public static final long MAX_ID = Integer.MAX_VALUE;

    private BlockGrants() {
    }

    /** Whether a lease of this size is acceptable at all. */
    public static boolean validSize(int size) {
        return size >= 1 && size <= MAX_BLOCK_SIZE;
    }

    /**
     * The block granted when the watermark (first never-granted id) is {@code watermark}, or
     * {@code null} when the id space is exhausted.
     */
    public static IdBlock grant(long watermark, int size) {
        if (!validSize(size)) {
            throw new IllegalArgumentException("invalid block size " + size);
        }
        long start = Math.max(watermark, FIRST_ID);
        if (start + size - 1 > MAX_ID) {
            return null;
        }
        return new IdBlock(start, size);
    }

    /** The watermark after an id was taken outside any block (explicit ids, as in an import). */
    public static long watermarkAfterExplicit(long watermark, long explicitId) {
        return Math.max(watermark, explicitId + 1);
    }
}
