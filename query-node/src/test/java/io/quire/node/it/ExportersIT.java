package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Confluent's exporters API between two Quire registries (two journals, so two clusters as a
 * client sees them) on the in-process broker: the source's node that runs the exporter is killed
 * with SIGKILL mid-export, the other source node takes the lease over, and the destination ends
 * with every version once, under its source id and version.
 */
class ExportersIT {

    static final String LEASE_MS = "3000";

    @TempDir
    Path dir;

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    Process launch(String topic, String nodeId, Path log) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx384m", "-cp", System.getProperty("java.class.path"),
                "io.quire.node.Main", "serve", "--port", "0", "--data-dir", dir.resolve(nodeId).toString(),
                "--bootstrap-servers", SharedKafka.bootstrapServers(), "--journal-topic", topic,
                "--journal-replication", "1", "--journal-min-isr", "1", "--node-id", nodeId, "--http-instances", "1",
                "--exporter-lease-ms", LEASE_MS));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (java.io.IOException e) {
            return "(no log)";
        }
    }

    static String schema(int i) {
        return Http.record("O" + i, "{\"name\":\"f" + i + "\",\"type\":\"int\"}");
    }

    static Http.Response ok(Http.Response r) {
        assertTrue(r.status() / 100 == 2, () -> r.status() + " " + r.body());
        return r;
    }

    static String exporter(String name, String url) throws Exception {
        return Http.JSON.writeValueAsString(Map.of("name", name, "contextType", "NONE", "subjects", List.of("orders-*"),
                "config", Map.of("schema.registry.url", url)));
    }

    @Test
    void exportsAcrossAKilledRunnerWithNothingLostOrCopiedTwice() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String srcTopic = "export-src-" + run;
        // the destination is another registry on another Kafka cluster
        io.quire.node.kafka.EmbeddedKafka otherKafka = new io.quire.node.kafka.EmbeddedKafka(dir.resolve("kafka-dst")).start();
        QuireNode dst = Nodes.start(Nodes.config("export-dst-" + run, dir.resolve("dst"), "dst-1")
                .withBootstrapServers(otherKafka.bootstrapServers()));
        Path log1 = dir.resolve("src-1.log");
        Process src1 = launch(srcTopic, "src-1", log1);
        QuireNode src2 = null;
        try {
            Http a = new Http(Nodes.portFromLog(log1, 1, 120));
            Http d = new Http(dst.httpPort());
            ok(a.put("/config", "{\"compatibility\":\"NONE\"}"));
            for (int i = 0; i < 20; i++) {
                ok(a.post("/subjects/orders-" + (i % 5) + "/versions", Http.schemaBody(schema(i))));
            }
            ok(a.post("/subjects/other/versions", Http.schemaBody(schema(999))));
            assertEquals(200, a.post("/exporters", exporter("dr", "http://127.0.0.1:" + dst.httpPort())).status());
            Nodes.await(() -> "src-1".equals(a.get("/exporters/dr/status").json().path("runner").asText()),
                    Duration.ofSeconds(30), () -> "src-1 running the exporter: " + a.get("/exporters/dr/status").body());
            src2 = Nodes.start(Nodes.config(srcTopic, dir.resolve("src-2"), "src-2", "--exporter-lease-ms", LEASE_MS));
            Http b = new Http(src2.httpPort());

            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger written = new AtomicInteger(20);
            Thread writer = new Thread(() -> {
                for (int i = 20; writing.get() && i < 400; i++) {
                    ok(b.post("/subjects/orders-" + (i % 25) + "/versions", Http.schemaBody(schema(i))));
                    written.incrementAndGet();
                }
            });
            writer.start();
            Nodes.await(() -> written.get() >= 150, Duration.ofSeconds(60), () -> "150 registrations");
            long killedAt = System.nanoTime();
            src1.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // kill -9 of the exporter's runner
            Nodes.await(() -> "src-2".equals(b.get("/exporters/dr/status").json().path("runner").asText()),
                    Duration.ofSeconds(30), () -> "src-2 taking the exporter over: " + b.get("/exporters/dr/status").body());
            long takeOverMs = (System.nanoTime() - killedAt) / 1_000_000;
            writer.join(120_000);
            writing.set(false);
            long endOffset = b.get("/admin/position").json().path("offset").asLong();
            long doneStart = System.nanoTime();
            Nodes.await(() -> b.get("/exporters/dr/status").json().path("offset").asLong() >= endOffset,
                    Duration.ofSeconds(60), () -> "the exporter past " + endOffset + ": " + b.get("/exporters/dr/status").body());
            long drainMs = (System.nanoTime() - doneStart) / 1_000_000;

            // every version of every exported subject, with its id, exactly once at the destination
            int versions = 0;
            for (JsonNode s : b.get("/subjects").json()) {
                String subject = s.asText();
                if (!subject.startsWith("orders-")) {
                    assertEquals(404, d.get("/subjects/" + subject + "/versions").status(), subject + " is not exported");
                    continue;
                }
                JsonNode here = b.get("/subjects/" + subject + "/versions").json();
                assertEquals(here, ok(d.get("/subjects/" + subject + "/versions")).json(), subject);
                for (JsonNode v : here) {
                    JsonNode src = b.get("/subjects/" + subject + "/versions/" + v.asInt()).json();
                    JsonNode copy = d.get("/subjects/" + subject + "/versions/" + v.asInt()).json();
                    assertEquals(src.path("id"), copy.path("id"), subject + " v" + v);
                    assertEquals(src.path("schema"), copy.path("schema"), subject + " v" + v);
                    versions++;
                }
            }
            assertEquals(written.get(), versions);
            Map<String, Integer> imports = new HashMap<>();
            long after = -1;
            while (true) {
                JsonNode page = ok(d.get("/audit?limit=1000&after=" + after)).json();
                if (page.isEmpty()) {
                    break;
                }
                for (JsonNode e : page) {
                    after = e.path("offset").asLong();
                    if (e.path("command").asText().equals("ImportSchema") && e.path("outcome").asText().equals("SchemaRegistered")) {
                        imports.merge(e.path("subject").asText(), 1, Integer::sum);
                    }
                }
            }
            assertEquals(versions, imports.values().stream().mapToInt(Integer::intValue).sum(),
                    "one import per version at the destination: " + imports);
            System.out.printf("exporter: %d versions copied; runner killed, taken over in %d ms (lease %s ms);"
                    + " caught up %d ms after the last write%n", versions, takeOverMs, LEASE_MS, drainMs);
        } finally {
            src1.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            if (src2 != null) {
                src2.close();
            }
            dst.close();
            otherKafka.close();
        }
    }

    /** How fast an exporter copies a registry that exists already: 1,000 versions in 50 subjects, from offset 0. */
    @Test
    void copiesAnExistingRegistry() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        try (QuireNode src = Nodes.start(Nodes.config("export-bulk-src-" + run, dir.resolve("bs"), "bs-1"));
             QuireNode dst = Nodes.start(Nodes.config("export-bulk-dst-" + run, dir.resolve("bd"), "bd-1"))) {
            Http a = new Http(src.httpPort());
            ok(a.put("/config", "{\"compatibility\":\"NONE\"}"));
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                int n = i;
                done.add(pool.submit(() -> ok(a.post("/subjects/orders-" + (n % 50) + "/versions",
                        Http.schemaBody(schema(n))))));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            long end = a.get("/admin/position").json().path("offset").asLong();
            long t0 = System.nanoTime();
            ok(a.post("/exporters", Http.JSON.writeValueAsString(Map.of("name", "bulk", "contextType", "CUSTOM",
                    "context", "copy", "subjectRenameFormat", "eu-${subject}", "subjects", List.of("orders-*"),
                    "config", Map.of("schema.registry.url", "http://127.0.0.1:" + dst.httpPort())))));
            Nodes.await(() -> a.get("/exporters/bulk/status").json().path("offset").asLong() >= end,
                    Duration.ofSeconds(120), () -> "the exporter past " + end + ": " + a.get("/exporters/bulk/status").body());
            double seconds = (System.nanoTime() - t0) / 1e9;
            Http d = new Http(dst.httpPort());
            // renamed and in the exporter's context at the destination, ids kept
            assertEquals(50, d.get("/subjects").json().size());
            for (JsonNode subject : d.get("/subjects").json()) {
                assertTrue(subject.asText().startsWith(":.copy:eu-orders-"), subject.asText());
            }
            assertEquals(a.get("/subjects/orders-7/versions").json(), d.get("/subjects/:.copy:eu-orders-7/versions").json());
            assertEquals(a.get("/subjects/orders-7/versions/3").json().path("id"),
                    d.get("/subjects/:.copy:eu-orders-7/versions/3").json().path("id"));
            System.out.printf("exporter: 1000 versions in 50 subjects copied in %.2f s (%.0f versions/s)%n", seconds,
                    1000 / seconds);
        }
    }

    @Test
    void answersConfluentsCodes() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        try (QuireNode n = Nodes.start(Nodes.config("export-api-" + run, dir.resolve("api"), "api-1"))) {
            Http h = new Http(n.httpPort());
            String url = "http://127.0.0.1:1";
            assertEquals(List.of(), Http.JSON.convertValue(ok(h.get("/exporters")).json(), List.class));
            assertEquals("x1", ok(h.post("/exporters", exporter("x1", url))).json().path("name").asText());
            assertEquals(40960, h.post("/exporters", exporter("x1", url)).errorCode());
            assertEquals(40951, h.post("/exporters", "{\"name\":\"x2\",\"config\":{}}").errorCode());
            assertEquals(40950, h.post("/exporters", "{\"config\":{\"schema.registry.url\":\"" + url + "\"}}").errorCode());
            assertEquals(404, h.get("/exporters/nope").status());
            assertEquals(40450, h.get("/exporters/nope/status").errorCode());
            JsonNode info = ok(h.get("/exporters/x1")).json();
            assertEquals("NONE", info.path("contextType").asText());
            assertEquals(url, ok(h.get("/exporters/x1/config")).json().path("schema.registry.url").asText());
            assertEquals(40961, h.put("/exporters/x1/resume", "").errorCode());
            assertEquals(40963, h.put("/exporters/x1/reset", "").errorCode());
            assertEquals(40963, h.put("/exporters/x1/config", "{\"config\":{\"a\":\"b\"}}").errorCode());
            ok(h.put("/exporters/x1/pause", ""));
            assertEquals("PAUSED", h.get("/exporters/x1/status").json().path("state").asText());
            assertEquals(40962, h.put("/exporters/x1/pause", "").errorCode());
            ok(h.put("/exporters/x1/config", "{\"config\":{\"basic.auth.user.info\":\"u:p\"}}"));
            assertEquals("u:p", h.get("/exporters/x1/config").json().path("basic.auth.user.info").asText());
            ok(h.put("/exporters/x1/reset", ""));
            assertEquals(-1, h.get("/exporters/x1/status").json().path("offset").asLong());
            ok(h.put("/exporters/x1/resume", ""));
            // the destination refuses connections: the runner reports it as Confluent's ERROR state with its trace
            ok(h.post("/subjects/orders-1/versions", Http.schemaBody(schema(7))));
            Nodes.await(() -> h.get("/exporters/x1/status").json().path("state").asText().equals("ERROR"),
                    Duration.ofSeconds(30), () -> "ERROR state: " + h.get("/exporters/x1/status").body());
            assertTrue(h.get("/exporters/x1/status").json().path("trace").asText().length() > 0);
            ok(h.delete("/exporters/x1"));
            assertEquals(40450, h.get("/exporters/x1").errorCode());
        }
    }
}
