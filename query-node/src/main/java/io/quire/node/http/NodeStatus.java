package io.quire.node.http;

import java.util.List;

/**
 * What the health, metadata and cluster endpoints need to know about the node: facts about it, not
 * its services (the admin handlers take those they use).
 */
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
    default List<String> peerNodes() {
        return List.of();
    }
}
