package io.quire.bench.drill;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;

/**
 * Which broker of the drill's cluster leads the journal partition, asked of the brokers themselves
 * (their node ids 1 to 3 are the namespaces b1 to b3), so a fault can isolate exactly that broker.
 */
final class JournalLeader implements AutoCloseable {

    static final String TOPIC = "_quire_journal";

    private final Admin admin;

    JournalLeader() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "10.77.0.11:9092,10.77.0.12:9092,10.77.0.13:9092");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        this.admin = Admin.create(p);
    }

    /** The leading broker's namespace name ("b2"), or {@code null} when the brokers do not say in 5 s. */
    String broker() {
        try {
            Map<String, TopicDescription> d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(5, TimeUnit.SECONDS);
            Node leader = d.get(TOPIC).partitions().get(0).leader();
            return leader == null || leader.id() < 1 || leader.id() > 3 ? null : "b" + leader.id();
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
