package io.quire.node.kafka;

import io.quire.journal.JournalContract;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the journal topic when missing, refuses one that breaks the contract, reads its end. */
public final class JournalAdmin implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JournalAdmin.class);

    private final Admin admin;
    private final String topic;

    public JournalAdmin(Properties kafka, String topic) {
        this.admin = Admin.create(kafka);
        this.topic = topic;
    }

    /**
     * Ensures the topic exists with exactly one partition; returns its Kafka topic id, which changes
     * when the topic is deleted and created again (snapshots are checked against it).
     */
    public String ensureJournal(short replication, int minInsyncReplicas) throws Exception {
        Optional<TopicDescription> existing = describe();
        if (existing.isEmpty()) {
            NewTopic t = new NewTopic(topic, JournalContract.PARTITIONS, replication)
                    .configs(JournalContract.topicConfig(minInsyncReplicas));
            try {
                admin.createTopics(List.of(t)).all().get(30, TimeUnit.SECONDS);
                LOG.info("created journal topic {} (1 partition, replication {}, min.insync.replicas {})", topic,
                        replication, minInsyncReplicas);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            // Topic metadata reaches every broker a moment after creation: wait for it, bounded.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            existing = describe();
            while (existing.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(200);
                existing = describe();
            }
        }
        TopicDescription journal = existing.orElseThrow(() -> new IllegalStateException(
                "journal topic " + topic + " still not visible 30 s after creation"));
        int partitions = journal.partitions().size();
        if (partitions != JournalContract.PARTITIONS) {
            throw new IllegalStateException("journal topic " + topic + " has " + partitions
                    + " partitions; Quire needs exactly 1 for a total order of commands. Refusing to start.");
        }
        raiseRecordLimit();
        return journal.topicId().toString();
    }

    /**
     * A journal created before change sets keeps Kafka's 1 MiB record limit: raise it to
     * {@link JournalContract#MAX_RECORD_BYTES}. Where the node may not alter the topic, it says so and
     * goes on; a change set larger than the topic takes is then refused by Kafka.
     */
    private void raiseRecordLimit() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
            ConfigEntry limit = config == null ? null : config.get("max.message.bytes");
            if (limit != null && limit.value() != null && Long.parseLong(limit.value()) >= JournalContract.MAX_RECORD_BYTES) {
                return;
            }
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes",
                    Integer.toString(JournalContract.MAX_RECORD_BYTES)), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
            LOG.info("journal topic {}: max.message.bytes raised from {} to {} (change sets)", topic,
                    limit == null ? "the default" : limit.value(), JournalContract.MAX_RECORD_BYTES);
        } catch (Exception e) {
            LOG.warn("journal topic {}: cannot raise max.message.bytes to {} ({}); change sets above the topic's "
                    + "limit will be refused", topic, JournalContract.MAX_RECORD_BYTES, e.toString());
        }
    }

    private Optional<TopicDescription> describe() throws Exception {
        try {
            return Optional.ofNullable(admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The offset the next journal record will get. */
    /** The Kafka cluster's id, as its brokers report it. */
    public String clusterId(long timeoutMs) throws InterruptedException, ExecutionException, TimeoutException {
        return admin.describeCluster().clusterId().get(timeoutMs, TimeUnit.MILLISECONDS);
    }

    public long endOffset(long timeoutMs) throws InterruptedException, ExecutionException, TimeoutException {
        TopicPartition tp = new TopicPartition(topic, 0);
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)
                .get(timeoutMs, TimeUnit.MILLISECONDS).offset();
    }

    @Override
    public void close() {
        admin.close();
    }
}
