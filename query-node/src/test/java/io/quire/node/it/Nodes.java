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

    private static final java.util.regex.Pattern LISTENING =
            java.util.regex.Pattern.compile("HTTP API listening on https?://[^:]+:(\\d+)");

    /**
     * The port a node process started with {@code --port 0} chose, read from its log: the
     * {@code occurrence}-th "HTTP API listening" line (a log appended to across restarts has one
     * per start). Fails with what it waited for after {@code seconds}.
     */
    static int portFromLog(Path log, int occurrence, int seconds) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            if (java.nio.file.Files.exists(log)) {
                java.util.regex.Matcher m = LISTENING.matcher(java.nio.file.Files.readString(log));
                for (int n = 1; m.find(); n++) {
                    if (n == occurrence) {
                        return Integer.parseInt(m.group(1));
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no HTTP port #" + occurrence + " in " + log + " after " + seconds + " s");
    }

    /** Waits for {@code condition}, or fails saying what it waited for. */
    static void await(java.util.function.BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + timeout.toSeconds() + " s for " + what.get());
            }
            Thread.sleep(20);
        }
    }

    static QuireNode start(QuireConfig config) throws Exception {
        QuireNode node = new QuireNode(config, () -> { }).start();
        return node.awaitReady(Duration.ofSeconds(60));
    }
}
