package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/** The journal topic contract on a real broker: created as specified, and a wrong one refused. */
class JournalContractIT {

    static Admin admin() {
        Properties p = new Properties();
        p.put("bootstrap.servers", SharedKafka.bootstrapServers());
        return Admin.create(p);
    }

    @Test
    void aMissingJournalIsCreatedWithOnePartitionAndInfiniteRetention() throws Exception {
        try (QuireNode node = Nodes.start(Nodes.config("contract-created", Files.createTempDirectory("quire-c1"), "c1"));
             Admin admin = admin()) {
            assertEquals(1, admin.describeTopics(List.of("contract-created")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("contract-created").partitions().size());
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, "contract-created");
            Config c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
            assertEquals("-1", c.get("retention.ms").value());
            assertEquals("delete", c.get("cleanup.policy").value());
            assertEquals("false", c.get("unclean.leader.election.enable").value());
        }
    }

    @Test
    void aJournalWithMoreThanOnePartitionIsRefusedAtStartUp() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("contract-two", 2, (short) 1).configs(Map.of())))
                    .all().get(30, TimeUnit.SECONDS);
        }
        QuireNode node = new QuireNode(Nodes.config("contract-two", Files.createTempDirectory("quire-c2"), "c2"), () -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, node::start);
        assertTrue(e.getMessage().contains("2 partitions"), e.getMessage());
        node.close();
    }
}
