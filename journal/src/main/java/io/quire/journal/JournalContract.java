package io.quire.journal;

import java.util.Map;

/**
 * The contract of the journal topic and of every producer that writes to it, as plain settings
 * (the adapters turn them into Kafka calls). The journal is the system of record: one partition
 * for a total order, nothing ever deleted, no unclean leader election, every write acknowledged
 * by the in-sync replicas.
 */
public final class JournalContract {

    public static final String DEFAULT_TOPIC = "_quire_journal";
    public static final int PARTITIONS = 1;
    /** Production replication; a development setup with one broker uses 1. */
    public static final short PRODUCTION_REPLICATION = 3;
    public static final int PRODUCTION_MIN_INSYNC_REPLICAS = 2;

    /**
     * The largest journal record: a change set of a few thousand subjects is one record (a registration
     * takes about 400 bytes of it). Kafka's default is 1 MiB; the topic is created with this, and a
     * node raises it on a journal created before.
     */
    public static final int MAX_RECORD_BYTES = 8 << 20;

    private JournalContract() {
    }

    /** Topic configuration for the given number of in-sync replicas required. */
    public static Map<String, String> topicConfig(int minInsyncReplicas) {
        return Map.of(
                "cleanup.policy", "delete",
                "retention.ms", "-1",
                "retention.bytes", "-1",
                "min.insync.replicas", Integer.toString(minInsyncReplicas),
                "unclean.leader.election.enable", "false",
                "max.message.bytes", Integer.toString(MAX_RECORD_BYTES));
    }

    /** Producer settings no deployment may override. */
    public static Map<String, String> producerConfig() {
        return Map.of(
                "acks", "all",
                "enable.idempotence", "true",
                "max.in.flight.requests.per.connection", "5",
                "max.request.size", Integer.toString(MAX_RECORD_BYTES));
    }
}
