package io.quire.node.view.store;

import java.time.Duration;

/** When pending writes are written to RocksDB; {@code maxCommands} 1 is record by record. */
public record GroupCommit(int maxCommands, long maxBytes, Duration maxAge) {

    /** Measured on the replay bench: see docs/adr/0011-group-commit.md. */
    public static final GroupCommit DEFAULT = new GroupCommit(2_000, 16L << 20, Duration.ofMillis(200));
    /**
     * While serving (Kafka Streams applies the journal's tail): smaller groups. A pending group
     * is live until written, so the collector copies whatever of it a young collection finds:
     * at ~13,000 registrations/s a group of 2,000 lasted ~150 ms and was most of the 3-5 MB
     * that survived each collection (0.8-1.8 MB with these bounds). A catch-up keeps
     * {@link #DEFAULT}, sized for throughput.
     */
    public static final GroupCommit SERVING = new GroupCommit(250, 4L << 20, Duration.ofMillis(25));
    public static final GroupCommit EACH_RECORD = new GroupCommit(1, Long.MAX_VALUE, Duration.ZERO);

    public GroupCommit {
        if (maxCommands < 1 || maxBytes < 1 || maxAge.isNegative()) {
            throw new IllegalArgumentException("group commit bounds must be positive");
        }
    }
}
