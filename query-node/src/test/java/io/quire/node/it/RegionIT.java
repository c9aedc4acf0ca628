package io.quire.node.it;

import io.quire.journal.model.Principal;
import io.quire.journal.command.CommandId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.Mode;
import io.quire.node.QuireNode;
import io.quire.node.kafka.EmbeddedKafka;
import io.quire.node.ops.PromoteCommand;
import io.quire.node.ops.VerifyCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second region: two in-process Kafka clusters, the journal of region a mirrored into region b's
 * cluster by a real MirrorMaker 2 (connect-mirror 4.3.1 in a process of its own), a node of region b
 * started with --journal-follow on the mirror. Reads in b answer as in a, writes in b are refused
 * naming the primary, verify finds the same content in both; after region a is stopped, promote
 * makes b the primary, fences a's journal and b issues no id a issued.
 */
class RegionIT {

    static final Path MIRROR_LIB = Path.of("..", "compose", "mirrormaker", "target", "lib");

    @TempDir
    Path dir;

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    Process mirrorMaker(String a, String b, String topic) throws Exception {
        Path props = dir.resolve("mm2.properties");
        Files.writeString(props, String.join("\n",
                "clusters = a, b",
                "a.bootstrap.servers = " + a,
                "b.bootstrap.servers = " + b,
                "a->b.enabled = true",
                "a->b.topics = " + topic,
                "b->a.enabled = false",
                "tasks.max = 1",
                "replication.factor = 1",
                "refresh.topics.interval.seconds = 1",
                "emit.checkpoints.enabled = false",
                "emit.heartbeats.enabled = false",
                "sync.topic.acls.enabled = false",
                "offset-syncs.topic.replication.factor = 1",
                "checkpoints.topic.replication.factor = 1",
                "heartbeats.topic.replication.factor = 1",
                "offset.storage.replication.factor = 1",
                "status.storage.replication.factor = 1",
                "config.storage.replication.factor = 1",
                "offset.flush.interval.ms = 1000", ""));
        assertTrue(Files.isDirectory(MIRROR_LIB), "MirrorMaker's jars in " + MIRROR_LIB.toAbsolutePath()
                + " (built by the compose/mirrormaker module)");
        List<String> cmd = List.of(java(), "-Xmx384m", "-cp", MIRROR_LIB.toAbsolutePath() + "/*",
                "org.apache.kafka.connect.mirror.MirrorMaker", props.toString());
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("mm2.log").toFile()).start();
    }

    static Http.Response ok(Http.Response r) {
        assertTrue(r.status() / 100 == 2, () -> r.status() + " " + r.body());
        return r;
    }

    static String schema(int i) {
        return Http.schemaBody(Http.record("R" + i, "{\"name\":\"f" + i + "\",\"type\":\"int\"}"));
    }

    static int run(java.util.function.Function<PrintStream, Integer> command, StringBuilder output) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = command.apply(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        output.append(bytes.toString(StandardCharsets.UTF_8));
        return code;
    }

    @Test
    void aMirroredRegionServesTheSameReadsAndIsPromotedWithoutReusingIds() throws Exception {
        String topic = "region-journal";
        try (EmbeddedKafka kafkaA = new EmbeddedKafka(dir.resolve("kafka-a")).start();
             EmbeddedKafka kafkaB = new EmbeddedKafka(dir.resolve("kafka-b")).start()) {
            QuireNode a = Nodes.start(withServers(Nodes.config(topic, dir.resolve("a1"), "a1", "--region", "a"),
                    kafkaA.bootstrapServers()));
            Http ha = new Http(a.httpPort());
            ok(ha.put("/config", "{\"compatibility\":\"NONE\"}"));
            Set<Long> idsOfA = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                idsOfA.add(ok(ha.post("/subjects/s-" + (i % 6) + "/versions", schema(i))).json().path("id").asLong());
            }
            ok(ha.delete("/subjects/s-0/versions/1"));
            ok(ha.put("/config/cfg", "{\"compatibility\":\"FULL\"}"));

            Process mm2 = mirrorMaker(kafkaA.bootstrapServers(), kafkaB.bootstrapServers(), topic);
            QuireNode b = null;
            try {
                b = Nodes.start(withServers(Nodes.config("a." + topic, dir.resolve("b1"), "b1", "--region", "b",
                        "--journal-follow", "http://127.0.0.1:" + a.httpPort()), kafkaB.bootstrapServers()));
                Http hb = new Http(b.httpPort());
                String bUrl = "http://127.0.0.1:" + b.httpPort();
                for (long id : idsOfA) {
                    String path = "/schemas/ids/" + id;
                    Nodes.await(() -> hb.get(path).status() == 200, Duration.ofSeconds(90),
                            () -> "id " + id + " readable in region b (MirrorMaker log: " + ExportersIT.tail(dir.resolve("mm2.log")) + ")");
                    assertEquals(ha.get(path).json(), hb.get(path).json());
                }

                // under load (4 writers in a): how long from an acknowledged write in a to a read by id in b
                List<Long> lagMs = new ArrayList<>();
                Set<Long> loadIds = java.util.concurrent.ConcurrentHashMap.newKeySet();
                java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger(30);
                List<Thread> writers = new ArrayList<>();
                long loadStart = System.nanoTime();
                for (int w = 0; w < 4; w++) {
                    Thread t = new Thread(() -> {
                        for (int i = next.getAndIncrement(); i < 630; i = next.getAndIncrement()) {
                            loadIds.add(ok(ha.post("/subjects/s-" + (i % 6) + "/versions", schema(i))).json().path("id")
                                    .asLong());
                        }
                    });
                    t.start();
                    writers.add(t);
                }
                for (int i = 0; next.get() < 630; i++) {
                    long id = ok(ha.post("/subjects/probe/versions", schema(5000 + i))).json().path("id").asLong();
                    idsOfA.add(id);
                    long t0 = System.nanoTime();
                    Nodes.await(() -> hb.get("/schemas/ids/" + id).status() == 200, Duration.ofSeconds(60),
                            () -> "id " + id + " in b");
                    lagMs.add((System.nanoTime() - t0) / 1_000_000);
                }
                for (Thread t : writers) {
                    t.join(120_000);
                }
                double loadRate = 600 / ((System.nanoTime() - loadStart) / 1e9);
                idsOfA.addAll(loadIds);
                Collections.sort(lagMs);

                // b refuses writes, naming the primary, and says where it stands
                Http.Response refused = hb.post("/subjects/s-9/versions", schema(999));
                assertEquals(42205, refused.errorCode(), refused.body());
                assertTrue(refused.json().path("message").asText().contains("follows the primary http://127.0.0.1:"
                        + a.httpPort()), refused.body());
                JsonNode region = ok(hb.get("/admin/region")).json();
                assertFalse(region.path("writable").asBoolean(), region.toString());
                assertEquals("b", region.path("region").asText());
                System.out.println("region b's GET /admin/region: " + region);

                // the same content in both regions, though the mirror's offsets differ
                StringBuilder verify = new StringBuilder();
                String nodes = "http://127.0.0.1:" + a.httpPort() + "," + bUrl;
                assertEquals(0, run(out -> call(() -> VerifyCommand.run(new String[] {"--nodes", nodes, "--content", "true",
                        "--timeout-s", "60"}, out)), verify), verify.toString());
                assertTrue(verify.toString().contains("IDENTICAL CONTENT"), verify.toString());
                assertEquals(ha.get("/config/cfg").json(), hb.get("/config/cfg").json());
                assertEquals(404, hb.get("/subjects/s-0/versions/1").status());

                // region a is lost: its node and the mirror stop
                long maxIdOfA = Collections.max(idsOfA);
                a.close();
                a = null;
                mm2.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                StringBuilder promote = new StringBuilder();
                long t0 = System.nanoTime();
                assertEquals(0, run(out -> call(() -> PromoteCommand.run(new String[] {"--node", bUrl, "--id-gap", "5000", "--fence-bootstrap-servers", kafkaA.bootstrapServers(),
                        "--fence-topic", topic}, out)), promote), promote.toString());
                long promoteMs = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ok(hb.get("/admin/region")).json().path("writable").asBoolean());

                Set<Long> idsOfB = new HashSet<>();
                for (int i = 0; i < 20; i++) {
                    long id = ok(hb.post("/subjects/b-" + (i % 4) + "/versions", schema(10_000 + i))).json().path("id").asLong();
                    idsOfB.add(id);
                    assertTrue(id > maxIdOfA + 5000, "id " + id + " above every id a granted");
                }
                Set<Long> both = new HashSet<>(idsOfB);
                both.retainAll(idsOfA);
                assertEquals(Set.of(), both, "ids issued by both regions");

                // a record region a wrote before the promotion, delivered late: refused, nothing changes
                Properties p = new Properties();
                p.put("bootstrap.servers", kafkaB.bootstrapServers());
                try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                        new ByteArraySerializer())) {
                    Envelope late = Envelope.of(CommandId.of("late-1"), "a1", Principal.of("alice"), System.currentTimeMillis(),
                            new SetMode(null, Mode.READONLY));
                    producer.send(new ProducerRecord<>("a." + topic, 0, "late-1".getBytes(StandardCharsets.UTF_8),
                            JournalCodec.encode(late))).get();
                }
                long lateOffset = ok(hb.post("/subjects/b-0/versions", schema(20_000))).offset();
                JsonNode audit = ok(hb.get("/audit?limit=10&after=" + (lateOffset - 5))).json();
                boolean fenced = false;
                for (JsonNode e : audit) {
                    fenced |= "late-1".equals(e.path("commandId").asText()) && e.path("errorCode").asInt() == 42205;
                }
                assertTrue(fenced, audit.toString());
                assertEquals("READWRITE", hb.get("/mode").json().path("mode").asText());

                // region a comes back: its journal holds the fence, so its node refuses writes
                a = Nodes.start(withServers(Nodes.config(topic, dir.resolve("a1"), "a1", "--region", "a"),
                        kafkaA.bootstrapServers()));
                Http back = new Http(a.httpPort());
                Http.Response stale = back.post("/subjects/s-1/versions", schema(30_000));
                assertEquals(42205, stale.errorCode(), stale.body());
                assertTrue(stale.json().path("message").asText().contains("region b"), stale.body());

                System.out.printf("region: %d ids mirrored; under %.0f registrations/s in a, read-by-id lag a -> b p50 %d ms,"
                        + " max %d ms over %d samples; promotion (with the fence) %d ms; 0 ids issued by both regions%n",
                        idsOfA.size(), loadRate, lagMs.get(lagMs.size() / 2), lagMs.get(lagMs.size() - 1), lagMs.size(),
                        promoteMs);
            } finally {
                mm2.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                if (b != null) {
                    b.close();
                }
                if (a != null) {
                    a.close();
                }
            }
        }
    }

    interface Call {
        int call() throws Exception;
    }

    static int call(Call c) {
        try {
            return c.call();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static io.quire.node.config.QuireConfig withServers(io.quire.node.config.QuireConfig c, String servers) {
        return c.withBootstrapServers(servers);
    }
}
