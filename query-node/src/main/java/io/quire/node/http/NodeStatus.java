package io.quire.node.http;

/** What the operations endpoints need to know about the node. */
public interface NodeStatus {

    /** Whether the node has applied the journal up to the end it saw at start-up and serves its view. */
    boolean ready();

    /** A short human-readable state for the readiness body. */
    String state();

    long appliedOffset();

    /** Whether the node reached the journal's brokers recently: false means writes will fail (50002). */
    boolean journalReachable();

    /** The Kafka cluster the journal lives on, as {@code GET /v1/metadata/id} names it. */
    String kafkaClusterId();

    /** This registry's name among registries: its journal topic (every node of one registry shares it). */
    String registryClusterId();

    /** Writes a snapshot of the view (see {@code Snapshots}) and describes it; slow, call off the event loop. */
    java.util.Map<String, Object> snapshot() throws Exception;

    /**
     * Takes a snapshot to send as a compressed archive ({@code SnapshotArchive}), which the caller
     * writes while it sends; slow, call off the event loop.
     */
    ArchiveSource snapshotForArchive() throws Exception;

    /** Whether the node is stopping: not ready, and every answer closes its connection. */
    default boolean stopping() {
        return false;
    }

    /** This node's name in the journal. */
    default String nodeId() {
        return "";
    }

    /** The journal's end offset as last seen (refreshed every few seconds). */
    default long journalEndOffset() {
        return appliedOffset() + 1;
    }

    /** The other nodes' URLs the console's cluster page shows ({@code --peer-nodes}). */
    default java.util.List<String> peerNodes() {
        return java.util.List.of();
    }

    /** This node's follower of a Confluent registry, if it runs one ({@code --follow-confluent}). */
    default java.util.Optional<io.quire.node.follow.ConfluentFollower> follower() {
        return java.util.Optional.empty();
    }

    /**
     * The cut-over: stop following the source and make the registry writable, once this node's
     * follower has copied everything the source holds; fails with the reason otherwise.
     */
    default java.util.concurrent.CompletableFuture<java.util.Map<String, Object>> cutOver() {
        return java.util.concurrent.CompletableFuture.failedFuture(new io.quire.node.error.RegistryException(
                io.quire.journal.model.ErrorCode.OPERATION_NOT_PERMITTED, "this node does not follow a registry"));
    }

    /** A snapshot folder, the journal offset it covers and the bytes of its files (before compression). */
    record ArchiveSource(java.nio.file.Path folder, long offset, long rawBytes) {
    }

    /** This node's region: whether it writes, what it follows, its promotion (null in tests that need none). */
    default io.quire.node.region.Regions regions() {
        return null;
    }
}
