package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.view.ViewDigest;
import io.quire.node.QuireNode;
import io.quire.node.config.QuireConfig;
import io.quire.node.ops.OfflineRebuild;
import io.quire.node.view.snapshot.Folders;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Restarts and crashes: a node's view survives a clean restart and {@code kill -9} in the middle of
 * a stream of writes, every acknowledged write is still there, and the view equals a fresh rebuild
 * of the journal from offset 0, byte for byte. The restarted nodes catch up before Kafka Streams
 * starts ({@code --view-catch-up-min-records 1}); {@code CatchUpIT} holds that path to Streams'.
 */
class CrashRecoveryIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    @Test
    void aCleanRestartKeepsEverythingAndAWipedViewRebuildsIdentically() throws Exception {
        Path data = Files.createTempDirectory("quire-restart-it");
        // a view behind by one record or more catches up before Kafka Streams starts (CatchUp)
        QuireConfig config = Nodes.config("restart-it", data, "restart-node", "--view-catch-up-min-records", "1");
        long firstId;
        String position;
        String digest;
        try (QuireNode node = Nodes.start(config)) {
            Http http = new Http(node.httpPort());
            firstId = http.post("/subjects/r1/versions", schemaBody(record("R1", NAME))).json().get("id").asLong();
            http.post("/subjects/r2/versions", schemaBody(record("R2", NAME)));
            http.put("/config/r1", "{\"compatibility\":\"NONE\"}");
            http.delete("/subjects/r2");
        }
        try (QuireNode node = Nodes.start(config)) {
            Http http = new Http(node.httpPort());
            assertEquals(firstId, http.get("/subjects/r1/versions/1").json().get("id").asLong());
            assertEquals("NONE", http.get("/config/r1").json().get("compatibilityLevel").asText());
            assertEquals("[\"r1\"]", http.get("/subjects").body());
            long second = http.post("/subjects/r3/versions", schemaBody(record("R3", NAME))).json().get("id").asLong();
            assertTrue(second > firstId + 1, "a restarted node leases a fresh block; got " + second);
            position = http.get("/admin/position").body();
            digest = http.get("/admin/view-digest").body();
        }
        Folders.deleteTree(data.resolve("streams"));
        try (QuireNode node = Nodes.start(config)) {
            Http http = new Http(node.httpPort());
            assertEquals(position, http.get("/admin/position").body(), "a rebuild reaches the same position digest");
            assertEquals(digest, http.get("/admin/view-digest").body(), "and the same bytes");
        }
    }

    @Test
    void killDashNineDuringWritesLosesNoAcknowledgedWrite() throws Exception {
        String topic = "crash-it";
        Path data = Files.createTempDirectory("quire-crash-it");
        Map<String, Long> acked = new ConcurrentHashMap<>();
        Process node = launch(topic, data, 1);
        Http http = new Http(Nodes.portFromLog(log(1), 1, 90));
        try {
            awaitReady(http);
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int writer = t;
                Thread th = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String subject = "crash-" + writer + "-" + i;
                        try {
                            Http.Response r = http.post("/subjects/" + subject + "/versions",
                                    schemaBody(record("C" + writer + "_" + i, NAME)));
                            if (r.status() == 200) {
                                acked.put(subject, r.json().get("id").asLong());
                            }
                        } catch (RuntimeException e) {
                            return; // the node is gone
                        }
                    }
                });
                th.start();
                writers.add(th);
            }
            try {
                Nodes.await(() -> acked.size() >= 400, java.time.Duration.ofSeconds(20), () -> "400 acks, got " + acked.size());
            } catch (AssertionError slow) {
                // a slow machine: kill with what was acknowledged so far (at least 100, asserted below)
            }
            node.destroyForcibly(); // SIGKILL
            node.waitFor(30, TimeUnit.SECONDS);
            stop.set(true);
            for (Thread th : writers) {
                th.join(30_000);
            }
            assertTrue(acked.size() >= 100, "writes were acknowledged before the kill: " + acked.size());
            System.out.println("kill -9 after " + acked.size() + " acknowledged registrations");

            node = launch(topic, data, 2);
            Http again = new Http(Nodes.portFromLog(log(2), 1, 90));
            awaitReady(again);
            for (Map.Entry<String, Long> e : acked.entrySet()) {
                Http.Response r = again.get("/subjects/" + e.getKey() + "/versions/1");
                assertEquals(200, r.status(), "acknowledged write lost: " + e.getKey());
                assertEquals(e.getValue().longValue(), r.json().get("id").asLong(), e.getKey());
            }
            Set<Long> ids = new HashSet<>(acked.values());
            assertEquals(acked.size(), ids.size(), "distinct schemas, distinct ids");
            for (int i = 0; i < 20; i++) {
                long id = again.post("/subjects/after-" + i + "/versions", schemaBody(record("After" + i, NAME)))
                        .json().get("id").asLong();
                assertFalse(ids.contains(id), "id " + id + " handed out twice");
            }

            Properties kafka = new Properties();
            kafka.put("bootstrap.servers", SharedKafka.bootstrapServers());
            OfflineRebuild.Result rebuilt = OfflineRebuild.rebuild(kafka, topic);
            long until = System.currentTimeMillis() + 30_000;
            while (again.get("/admin/position").json().get("offset").asLong() < rebuilt.endOffset() - 1
                    && System.currentTimeMillis() < until) {
                Thread.sleep(20);
            }
            assertEquals(rebuilt.view().position().digestHex(), again.get("/admin/position").json().get("digest").asText(),
                    "the rolling digest equals a fresh rebuild's");
            assertEquals(ViewDigest.of(rebuilt.kv()), again.get("/admin/view-digest").json().get("viewDigest").asText(),
                    "the view's bytes equal a fresh rebuild's");
        } finally {
            node.destroyForcibly();
            node.waitFor(30, TimeUnit.SECONDS);
        }
    }

    static Path log(int run) {
        return Path.of("target", "crash-node-" + run + ".log");
    }

    /** A node process that chooses its own HTTP port (and logs it). */
    static Process launch(String topic, Path data, int run) throws IOException {
        Files.deleteIfExists(log(run));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx512m", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
                "io.quire.node.Main", "serve", "--bootstrap-servers", SharedKafka.bootstrapServers(),
                "--journal-topic", topic, "--journal-replication", "1", "--journal-min-isr", "1",
                "--port", "0", "--data-dir", data.toString(), "--node-id", "crash-node",
                "--http-instances", "1", "--worker-threads", "2", "--view-catch-up-min-records", "1");
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log(run).toFile()).start();
    }

    static void awaitReady(Http http) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (http.get("/health/ready").status() == 200) {
                    return;
                }
            } catch (RuntimeException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("node not ready in 90 s");
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

}
