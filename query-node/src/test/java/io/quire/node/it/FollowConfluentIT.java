package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import io.quire.node.ops.CutoverCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A Confluent registry's {@code _schemas} topic, written the way Confluent's server writes it
 * (its key and value JSON, tombstones of permanent deletes, NOOP records, subjects interleaved),
 * followed live by a node: copied in order with the source's ids, read-only meanwhile, resumed after
 * a restart, and cut over under a steady stream of source writes with nothing lost or copied twice.
 */
class FollowConfluentIT {

    /** The source as the test wrote it: subject, version → id, schema, deleted (permanent deletes removed). */
    record Version(long id, String schema, boolean deleted) {
    }

    final Map<String, Version> expected = new TreeMap<>();
    final Map<String, String> levels = new TreeMap<>();
    final Map<String, String> modes = new TreeMap<>();
    KafkaProducer<String, String> producer;
    String topic;

    static String schema(String name) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    }

    boolean async;

    void send(String key, String value) throws Exception {
        var sent = producer.send(new ProducerRecord<>(topic, key, value));
        if (!async) {
            sent.get();
        }
    }

    void schema(String subject, int version, long id, String schema, boolean deleted) throws Exception {
        send("{\"keytype\":\"SCHEMA\",\"subject\":\"" + subject + "\",\"version\":" + version + ",\"magic\":1}",
                Http.JSON.writeValueAsString(Map.of("subject", subject, "version", version, "id", id, "schemaType", "AVRO",
                        "references", List.of(), "schema", schema, "deleted", deleted)));
        expected.put(subject + " " + version, new Version(id, schema, deleted));
    }

    void tombstone(String subject, int version) throws Exception {
        send("{\"keytype\":\"SCHEMA\",\"subject\":\"" + subject + "\",\"version\":" + version + ",\"magic\":1}", null);
        expected.remove(subject + " " + version);
    }

    void config(String subject, String level) throws Exception {
        send("{\"keytype\":\"CONFIG\",\"subject\":" + (subject == null ? "null" : "\"" + subject + "\"") + ",\"magic\":0}",
                level == null ? null : "{\"compatibilityLevel\":\"" + level + "\"}");
        if (level == null) {
            levels.remove(String.valueOf(subject));
        } else {
            levels.put(String.valueOf(subject), level);
        }
    }

    void mode(String subject, String mode) throws Exception {
        send("{\"keytype\":\"MODE\",\"subject\":" + (subject == null ? "null" : "\"" + subject + "\"") + ",\"magic\":0}",
                "{\"mode\":\"" + mode + "\"}");
        modes.put(String.valueOf(subject), mode);
    }

    void deleteSubject(String subject, int upTo) throws Exception {
        send("{\"keytype\":\"DELETE_SUBJECT\",\"subject\":\"" + subject + "\",\"magic\":0}",
                "{\"subject\":\"" + subject + "\",\"version\":" + upTo + "}");
        // as Confluent's reader applies it: versions 1 to upTo are deleted, a later one stays
        expected.replaceAll((k, v) -> k.startsWith(subject + " ")
                && Integer.parseInt(k.substring(subject.length() + 1)) <= upTo ? new Version(v.id(), v.schema(), true) : v);
    }

    void clearSubject(String subject) throws Exception {
        send("{\"keytype\":\"CLEAR_SUBJECT\",\"subject\":\"" + subject + "\",\"magic\":0}",
                "{\"subject\":\"" + subject + "\"}");
        expected.keySet().removeIf(k -> k.startsWith(subject + " "));
    }

    void noop() throws Exception {
        send("{\"keytype\":\"NOOP\",\"magic\":0}", null);
    }

    void createTopic(String name) throws Exception {
        topic = name;
        Properties p = new Properties();
        p.put("bootstrap.servers", SharedKafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact")))).all().get();
        }
        producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    QuireNode follower(Path dir, String... extra) throws Exception {
        String[] args = new String[extra.length + 4];
        args[0] = "--follow-confluent";
        args[1] = SharedKafka.bootstrapServers();
        args[2] = "--follow-confluent-topic";
        args[3] = topic;
        System.arraycopy(extra, 0, args, 4, extra.length);
        return Nodes.start(Nodes.config(topic + "-journal", dir, "follower-" + dir.getFileName(), args));
    }

    static JsonNode status(Http h) {
        return h.get("/admin/follow").json();
    }

    static void caughtUp(Http h) throws InterruptedException {
        Nodes.await(() -> {
            JsonNode f = status(h).path("follower");
            return "FOLLOWING".equals(f.path("state").asText()) && f.path("lagRecords").asLong() == 0
                    && f.path("sourceEnd").asLong() > 0;
        }, Duration.ofSeconds(60), () -> "follower caught up: " + status(h));
    }

    /** What Quire holds, in the test's terms: every version with its id, content and deleted flag. */
    static Map<String, Version> quire(Http h) throws Exception {
        Map<String, Version> out = new TreeMap<>();
        for (JsonNode s : h.get("/subjects?deleted=true").json()) {
            String subject = s.asText();
            for (JsonNode v : h.get("/subjects/" + subject + "/versions?deleted=true").json()) {
                JsonNode body = h.get("/subjects/" + subject + "/versions/" + v.asInt() + "?deleted=true").json();
                boolean live = h.get("/subjects/" + subject + "/versions/" + v.asInt()).status() == 200;
                out.put(subject + " " + v.asInt(), new Version(body.get("id").asLong(),
                        Http.JSON.readTree(body.get("schema").asText()).toString(), !live));
            }
        }
        return out;
    }

    Map<String, Version> source() throws Exception {
        Map<String, Version> out = new TreeMap<>();
        for (Map.Entry<String, Version> e : expected.entrySet()) {
            out.put(e.getKey(), new Version(e.getValue().id(), Http.JSON.readTree(e.getValue().schema()).toString(),
                    e.getValue().deleted()));
        }
        return out;
    }

    /**
     * How fast a follower catches up a big {@code _schemas} topic (a benchmark, run only when asked:
     * {@code bench/follow-catchup.sh}): {@code quire.follow.bench.records} schema records over
     * {@code quire.follow.bench.subjects} subjects (a tenth as many by default), each record a new version of a subject drawn at random (seeded), written before
     * the follower starts; measured from the node's start to the follower having copied the last one.
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "quire.follow.bench.records", matches = "\\d+")
    void catchUpRate() throws Exception {
        int records = Integer.getInteger("quire.follow.bench.records");
        int subjects = Integer.getInteger("quire.follow.bench.subjects", Math.max(1, records / 10));
        createTopic("follow-bench-" + System.nanoTime());
        async = true;
        java.util.Random random = new java.util.Random(42);
        int[] versions = new int[subjects];
        StringBuilder fields = new StringBuilder();
        long w0 = System.nanoTime();
        for (int i = 0; i < records; i++) {
            int s = random.nextInt(subjects);
            int v = ++versions[s];
            fields.setLength(0);
            for (int f = 1; f <= v; f++) {
                fields.append(",{\"name\":\"f").append(f).append("\",\"type\":\"string\",\"default\":\"\"}");
            }
            String schema = "{\"type\":\"record\",\"name\":\"S" + s + "\",\"fields\":[{\"name\":\"id\",\"type\":"
                    + "\"string\"}" + fields + "]}";
            send("{\"keytype\":\"SCHEMA\",\"subject\":\"bench-" + s + "-value\",\"version\":" + v + ",\"magic\":1}",
                    "{\"subject\":\"bench-" + s + "-value\",\"version\":" + v + ",\"id\":" + (i + 1)
                            + ",\"schemaType\":\"AVRO\",\"references\":[],\"schema\":" + Http.JSON.writeValueAsString(schema)
                            + ",\"deleted\":false}");
        }
        producer.flush();
        System.out.printf("follow bench: wrote %,d records over %,d subjects in %.1f s%n", records, subjects,
                (System.nanoTime() - w0) / 1e9);
        long t0 = System.nanoTime();
        Path dir = Files.createTempDirectory("quire-follow-bench");
        try (QuireNode node = follower(dir.resolve("bench"))) {
            Http h = new Http(node.httpPort());
            long ready = System.nanoTime();
            long lastPrint = ready;
            long halfway = 0; // when the follower was first seen at most half the records behind
            while (true) {
                JsonNode f = status(h).path("follower");
                if (f.path("lagRecords").asLong() == 0 && f.path("sourceEnd").asLong() >= records) {
                    break;
                }
                if (halfway == 0 && f.path("sourceEnd").asLong() >= records && f.path("lagRecords").asLong() <= records / 2) {
                    halfway = System.nanoTime();
                }
                if (!"FOLLOWING".equals(f.path("state").asText()) && !"STARTING".equals(f.path("state").asText())) {
                    throw new AssertionError("the follower stopped: " + f);
                }
                if (System.nanoTime() - lastPrint > 2_000_000_000L) {
                    lastPrint = System.nanoTime();
                    System.out.printf("follow bench: %.0f s, %,d behind%n", (lastPrint - t0) / 1e9,
                            f.path("lagRecords").asLong());
                }
                Thread.sleep(100);
            }
            long end = System.nanoTime();
            double seconds = (end - t0) / 1e9;
            System.out.printf("follow bench: %,d records copied %.1f s after the node started (ready after %.1f s):"
                            + " %,.0f records/s (window %d, run %d); from ready %,.0f records/s; the second half"
                            + " %,.0f records/s%n", records, seconds, (ready - t0) / 1e9,
                    records / seconds, Integer.getInteger("quire.follow.window", 4096),
                    Integer.getInteger("quire.follow.run", 256), records / ((end - ready) / 1e9),
                    halfway == 0 ? Double.NaN : (records - records / 2) / ((end - halfway) / 1e9));
            assertEquals(200, h.get("/schemas/ids/" + records).status(), "the last record's id is there");
        } finally {
            io.quire.node.view.snapshot.Folders.deleteTree(dir); // a run leaves a few hundred MiB otherwise
        }
    }

    @Test
    void followsEveryRecordKindResumesAfterARestartAndCutsOverUnderASteadyStream() throws Exception {
        createTopic("confluent-follow-it");
        noop();
        config(null, "FULL");
        schema("orders-value", 1, 1, schema("Order"), false);
        schema("payments-value", 1, 2, schema("Payment"), false);
        schema("orders-value", 2, 3, schema("Order2"), false);
        noop();
        config("orders-value", "NONE");
        schema("payments-value", 2, 4, schema("Payment2"), false);
        schema("payments-value", 2, 4, schema("Payment2"), true); // a version soft-deleted
        schema("old-value", 1, 5, schema("Old"), false);
        deleteSubject("old-value", 1);
        clearSubject("old-value");
        schema("partial-value", 1, 13, schema("Partial"), false);
        schema("partial-value", 2, 14, schema("Partial2"), false);
        deleteSubject("partial-value", 1); // as Confluent reads it: version 2 stays
        schema("gone-value", 1, 6, schema("Gone"), false);
        schema("gone-value", 1, 6, schema("Gone"), true);
        tombstone("gone-value", 1); // a version deleted for good
        schema("compacted-value", 1, 7, schema("Compacted"), true); // only its deleted form survived compaction
        schema("shared-value", 1, 1, schema("Order"), false); // the same content, the same id, another subject
        mode("payments-value", "READONLY");
        // a version with a data contract, as Confluent 7.4+ writes it
        send("{\"keytype\":\"SCHEMA\",\"subject\":\"contract-value\",\"version\":1,\"magic\":1}",
                "{\"subject\":\"contract-value\",\"version\":1,\"id\":12,\"schemaType\":\"AVRO\",\"references\":[],"
                        + "\"metadata\":{\"properties\":{\"owner\":\"team-a\"}},\"ruleSet\":{\"domainRules\":[{\"name\":\"r\","
                        + "\"kind\":\"CONDITION\",\"mode\":\"WRITE\",\"type\":\"CEL\",\"expr\":\"true\"}]},"
                        + "\"schema\":" + Http.JSON.writeValueAsString(schema("Contract")) + ",\"deleted\":false}");
        expected.put("contract-value 1", new Version(12, schema("Contract"), false));

        Path dir = Files.createTempDirectory("quire-follow");
        try (QuireNode node = follower(dir.resolve("a"))) {
            Http h = new Http(node.httpPort());
            caughtUp(h);
            assertEquals(source(), quire(h), "every source record copied, with its id");
            assertEquals("NONE", h.get("/config/orders-value").json().path("compatibilityLevel").asText());
            assertEquals("FULL", h.get("/config").json().path("compatibilityLevel").asText());
            assertEquals("READONLY", h.get("/mode/payments-value").json().path("mode").asText());
            JsonNode contract = h.get("/subjects/contract-value/versions/1").json();
            assertEquals("team-a", contract.path("metadata").path("properties").path("owner").asText(), contract.toString());
            assertEquals("r", contract.path("ruleSet").path("domainRules").path(0).path("name").asText());
            long journalBefore = h.get("/admin/position").json().path("offset").asLong();
            Http.Response refused = h.post("/subjects/new-value/versions", Http.schemaBody(schema("New")));
            assertEquals(422, h.put("/config", "{\"compatibility\":\"NONE\"}").status());
            assertEquals(journalBefore, h.get("/admin/position").json().path("offset").asLong(),
                    "refused at the edge: nothing reached the journal");
            assertEquals(422, refused.status(), refused.body());
            assertEquals(42205, refused.json().path("error_code").asInt());
            assertTrue(refused.body().contains("confluent:" + SharedKafka.bootstrapServers() + "/" + topic), refused.body());
            assertTrue(h.get("/metrics").body().contains("quire_follow_lag_records 0.0"));
        }

        // the source goes on while the follower is down; it resumes where it was
        schema("orders-value", 3, 8, schema("Order3"), false);
        config("orders-value", null);
        schema("late-value", 1, 9, schema("Late"), false);
        try (QuireNode node = follower(dir.resolve("a"))) {
            Http h = new Http(node.httpPort());
            caughtUp(h);
            assertEquals(source(), quire(h), "resumed after the restart: nothing lost, nothing twice");
            assertTrue(h.get("/config/orders-value").status() == 404, "the subject's level was removed at the source");
            assertTrue(status(h).path("follower").path("recordsCopied").asLong() <= 3,
                    "only the records written meanwhile were copied: " + status(h));

            // a steady stream of source writes, then the source is set READONLY, then the cut-over
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger next = new AtomicInteger(100);
            async = true; // as fast as the producer goes, 2,000 records at most
            Thread stream = new Thread(() -> {
                try {
                    while (writing.get() && next.get() < 2_100) {
                        int id = next.getAndIncrement();
                        synchronized (expected) {
                            schema("stream-" + (id % 50) + "-value", 1 + (id - 100) / 50, id, schema("S" + id), false);
                        }
                    }
                    producer.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long t0 = System.nanoTime();
            stream.start();
            Thread.sleep(2_000);
            double lagDuringLoad = status(h).path("follower").path("lagSeconds").asDouble();
            long lagRecordsDuringLoad = status(h).path("follower").path("lagRecords").asLong();
            writing.set(false);
            stream.join();
            async = false;
            mode(null, "READONLY"); // the operator sets the source READONLY
            long streamed = next.get() - 100;
            long cut0 = System.nanoTime();
            OperatorCommandsIT.Run cut = OperatorCommandsIT.run(CutoverCommand::run, "--node",
                    "http://127.0.0.1:" + node.httpPort());
            long cutMs = (System.nanoTime() - cut0) / 1_000_000;
            assertEquals(0, cut.code(), cut.output());
            System.out.printf("follow: %d source records streamed; after 2 s %d records and %.3f s behind; all copied"
                            + " and cut over %.1f s after the stream began (%.0f records/s); the cut-over command took %d ms%n%s",
                    streamed, lagRecordsDuringLoad, lagDuringLoad, (System.nanoTime() - t0) / 1e9,
                    streamed / ((System.nanoTime() - t0) / 1e9), cutMs, cut.output());
            assertEquals(source(), quire(h), "after the cut-over: the source's content exactly");
            Nodes.await(() -> "CUT_OVER".equals(status(h).path("follower").path("state").asText()),
                    Duration.ofSeconds(10), () -> "the follower stopped: " + status(h));

            // a record the source writes now is not copied; Quire takes writes, with ids above the source's
            schema("after-value", 1, 5000, schema("After"), false);
            Http.Response registered = h.post("/subjects/quire-value/versions", Http.schemaBody(schema("Mine")));
            assertEquals(200, registered.status(), registered.body());
            long highestSourceId = next.get() - 1;
            assertTrue(registered.json().path("id").asLong() > highestSourceId, registered.body());
            Thread.sleep(1_000);
            assertEquals(404, h.get("/subjects/after-value/versions/1").status(), "nothing copied after the cut-over");
        }
    }

    @Test
    void anUnreadableRecordStopsTheFollowerUnlessToldToSkipIt() throws Exception {
        createTopic("confluent-follow-bad-it");
        schema("first-value", 1, 1, schema("First"), false);
        send("{\"keytype\":\"SCHEMA\",\"subject\":\"broken-value\",\"version\":1,\"magic\":1}", "this is not JSON");
        schema("third-value", 1, 3, schema("Third"), false);
        Path dir = Files.createTempDirectory("quire-follow-bad");
        try (QuireNode node = follower(dir.resolve("a"))) {
            Http h = new Http(node.httpPort());
            Nodes.await(() -> "STOPPED".equals(status(h).path("follower").path("state").asText()),
                    Duration.ofSeconds(60), () -> "the follower stopped: " + status(h));
            String error = status(h).path("follower").path("lastError").asText();
            assertTrue(error.contains("source record 1") && error.contains("--follow-skip-unreadable"), error);
            assertEquals(200, h.get("/subjects/first-value/versions/1").status());
            assertEquals(404, h.get("/subjects/third-value/versions/1").status(), "nothing past the bad record");
        }
        expected.remove("broken-value 1");
        try (QuireNode node = follower(dir.resolve("a"), "--follow-skip-unreadable", "true")) {
            Http h = new Http(node.httpPort());
            caughtUp(h);
            assertEquals(1, status(h).path("follower").path("recordsSkipped").asLong());
            assertEquals(source(), quire(h));
        }
    }

    /**
     * Plain new versions go to the journal as runs; a record the applier refuses inside a run (its
     * id holds other content, copied earlier in the same run) refuses the run. The follower then
     * sends those records one at a time: every record before the refused one is copied, it stops on
     * that one with its offset, and skips it when told to.
     */
    @Test
    void aRecordRefusedInsideARunStopsTheFollowerOnThatRecordUnlessToldToSkipIt() throws Exception {
        createTopic("confluent-follow-run-it");
        async = true; // written together, so that one poll reads them and they go as one run
        for (int i = 0; i < 30; i++) {
            schema("run-" + i + "-value", 1, 100 + i, schema("Run" + i), false);
        }
        schema("clash-value", 1, 105, schema("Clash"), false); // id 105 is Run5's
        for (int i = 30; i < 40; i++) {
            schema("run-" + i + "-value", 1, 100 + i, schema("Run" + i), false);
        }
        producer.flush();
        async = false;
        Path dir = Files.createTempDirectory("quire-follow-run");
        try (QuireNode node = follower(dir.resolve("a"))) {
            Http h = new Http(node.httpPort());
            Nodes.await(() -> "STOPPED".equals(status(h).path("follower").path("state").asText()),
                    Duration.ofSeconds(60), () -> "the follower stopped: " + status(h));
            String error = status(h).path("follower").path("lastError").asText();
            assertTrue(error.contains("source record 30 ") && error.contains("--follow-skip-unreadable"), error);
            assertEquals(200, h.get("/subjects/run-29-value/versions/1").status(), "every record before it copied");
            assertEquals(404, h.get("/subjects/clash-value/versions/1").status());
            assertEquals(404, h.get("/subjects/run-30-value/versions/1").status(), "nothing past the refused record");
            assertEquals(30, status(h).path("follower").path("recordsCopied").asLong(), status(h).toString());
            List<String> trail = new ArrayList<>();
            h.get("/audit?principal=confluent-follower&limit=1000").json()
                    .forEach(e -> trail.add(e.path("command").asText() + " " + e.path("outcome").asText()));
            assertTrue(trail.contains("ImportSchemas Rejected"), "the run was refused as a whole: " + trail);
            assertEquals(30, trail.stream().filter("ImportSchema SchemaRegistered"::equals).count(),
                    "then its records were sent one at a time: " + trail);
        }
        expected.remove("clash-value 1");
        try (QuireNode node = follower(dir.resolve("a"), "--follow-skip-unreadable", "true")) {
            Http h = new Http(node.httpPort());
            caughtUp(h);
            assertEquals(1, status(h).path("follower").path("recordsSkipped").asLong());
            assertEquals(source(), quire(h));
        }
    }
}
