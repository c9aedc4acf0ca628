package io.quire.node.it;

import io.quire.node.QuireNode;
import io.quire.node.config.QuireConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts query nodes in this JVM against the shared broker. */
final class Nodes {

    private Nodes() {
    }

    static QuireConfig config(String topic, Path dataDir, String nodeId, String... extra) {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--data-dir", dataDir.toString(),
                "--bootstrap-servers", SharedKafka.bootstrapServers(), "--journal-topic", topic,
                "--journal-replication", "1", "--journal-min-isr", "1", "--node-id", nodeId, "--http-instances", "1"));
        args.addAll(List.of(extra));
        return QuireConfig.from(false, args.toArray(String[]::new), Map.of());
    }

    static QuireNode start(QuireConfig config) throws Exception {
        QuireNode node = new QuireNode(config, () -> { }).start();
        return node.awaitReady(Duration.ofSeconds(60));
    }
}
