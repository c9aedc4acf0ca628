package io.quire.node.it;

import io.quire.journal.model.Principal;
import io.quire.journal.command.CommandId;
import io.quire.journal.model.Fingerprint;
import io.quire.node.view.store.Tuning;
import io.quire.node.view.store.GroupCommit;
import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import io.quire.node.QuireNode;
import io.quire.node.ops.OfflineRebuild;
import io.quire.node.view.apply.ApplyListener;
import io.quire.node.view.apply.ApplyTimings;
import io.quire.node.view.apply.CatchUp;
import io.quire.node.view.store.StoreKv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A fresh node that catches up before Kafka Streams starts (its own consumer, decoding on another
 * thread) and one that leaves the whole journal to Streams end with the same position digest and
 * the same view, byte for byte, as the node that wrote the journal.
 */
class CatchUpIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    @Test
    void catchingUpBeforeStreamsLeavesTheViewStreamsLeaves() throws Exception {
        String topic = "catch-up-it";
        Path dir = Files.createTempDirectory("quire-catch-up");
        String position;
        String digest;
        try (QuireNode writer = Nodes.start(Nodes.config(topic, dir.resolve("w"), "catch-up-w"))) {
            Http http = new Http(writer.httpPort());
            for (int s = 0; s < 30; s++) {
                String fields = NAME;
                for (int v = 0; v < 5; v++) {
                    fields += ",{\"name\":\"f" + v + "\",\"type\":\"string\",\"default\":\"\"}";
                    assertEquals(200, http.post("/subjects/cu-" + s + "/versions", schemaBody(record("Cu" + s, fields)))
                            .status());
                }
            }
            assertEquals(409, http.post("/subjects/cu-0/versions",
                    schemaBody(record("Cu0", "{\"name\":\"n\",\"type\":\"int\"}"))).status(), "a rejection, journaled");
            http.put("/config/cu-1", "{\"compatibility\":\"NONE\"}");
            http.put("/mode/cu-2", "{\"mode\":\"READONLY\"}");
            http.delete("/subjects/cu-3/versions/2");
            http.delete("/subjects/cu-4");
            http.delete("/subjects/cu-4?permanent=true");
            http.delete("/subjects/cu-5");
            position = http.get("/admin/position").body();
            digest = http.get("/admin/view-digest").body();
        }
        try (QuireNode caughtUp = Nodes.start(Nodes.config(topic, dir.resolve("c"), "catch-up-c",
                "--view-catch-up-min-records", "1"));
             QuireNode streamed = Nodes.start(Nodes.config(topic, dir.resolve("s"), "catch-up-s",
                     "--view-catch-up-min-records", "1000000"))) {
            assertTrue(caughtUp.recordsCaughtUpBeforeStreams() > 150, "the catch-up applied the journal: "
                    + caughtUp.recordsCaughtUpBeforeStreams());
            assertEquals(0, streamed.recordsCaughtUpBeforeStreams(), "Streams applied all of it");
            for (QuireNode n : new QuireNode[] {caughtUp, streamed}) {
                Http http = new Http(n.httpPort());
                assertEquals(position, http.get("/admin/position").body(), "the same position digest");
                assertEquals(digest, http.get("/admin/view-digest").body(), "the same bytes");
            }
            Http c = new Http(caughtUp.httpPort());
            // the catch-up kept each schema's terms and filed them once the node served (the digest waited for it)
            assertEquals(28, c.get("/search?q=cu*&kind=record&latestOnly=true&limit=100").json().get("hits").size(),
                    "every live subject's record (not cu-4's or cu-5's, deleted) found on the node that caught up");
            long id = c.post("/subjects/cu-after/versions", schemaBody(record("CuAfter", NAME))).json().get("id").asLong();
            assertEquals(id, c.get("/subjects/cu-after/versions/1").json().get("id").asLong(),
                    "Kafka Streams goes on from where the catch-up stopped");
        }
    }

    /** Registrations of new subjects behind one lease, written straight to the journal topic. */
    static long writeJournal(String topic, int registrations) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", SharedKafka.bootstrapServers());
        try (io.quire.node.kafka.JournalAdmin admin = new io.quire.node.kafka.JournalAdmin(p, topic)) {
            admin.ensureJournal((short) 1, 1);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, null, JournalCodec.encode(Envelope.of(CommandId.of("c-lease"), "it", Principal.of("it"),
                    1L, new LeaseIdBlock("it", "lease", registrations + 1))))).get();
            for (int i = 0; i < registrations; i++) {
                String schema = "{\"type\":\"record\",\"name\":\"Early" + i + "\",\"fields\":[]}";
                producer.send(new ProducerRecord<>(topic, 0, null, JournalCodec.encode(Envelope.of(CommandId.of("c-" + i), "it", Principal.of("it"),
                        2L + i, new RegisterSchema(Subject.of("early-" + i), SchemaType.AVRO, schema, List.of(),
                        Fingerprint.parse("fp-" + i), SchemaId.of(1 + i), CompatibilityLevel.BACKWARD, Offset.of(-1))))));
            }
            producer.flush();
        }
        return registrations + 1;
    }

    @Test
    void aCatchUpStoppedEarlyKeepsAConsistentPrefixAndTheNextGoesOnFromIt() throws Exception {
        String topic = "catch-up-stop-it";
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", SharedKafka.bootstrapServers());
        long end = writeJournal(topic, 5_000);
        java.io.File stateDir = Files.createTempDirectory("quire-catch-up-stop").toFile();
        AtomicInteger asked = new AtomicInteger();
        CatchUp.Result first = CatchUp.run(kafka, topic, end, 1, stateDir, "quire-view",
                GroupCommit.DEFAULT, Tuning.DEFAULT, ApplyListener.NONE, false, new AtomicLong(),
                new ApplyTimings(), () -> asked.incrementAndGet() > 1);
        first.store().close();
        assertTrue(first.records() > 0 && first.records() < end, "stopped after the first poll: " + first.records());
        assertEquals(first.records() - 1, first.toOffset(), "the position is the last record applied");

        CatchUp.Result second = CatchUp.run(kafka, topic, end, 1, stateDir, "quire-view",
                GroupCommit.DEFAULT, Tuning.DEFAULT, ApplyListener.NONE, false, new AtomicLong(),
                new ApplyTimings(), () -> false);
        try {
            assertEquals(first.toOffset(), second.fromOffset(), "a reopened store resumes after the stored position");
            assertEquals(end - first.records(), second.records(), "and applies the rest once");
            assertEquals(second.records() - second.records() / 2, second.secondHalfRecords(),
                    "the later half's rate counts the records after the halfway mark");
            assertTrue(second.secondHalfNanos() > 0 && second.secondHalfNanos() < second.nanos(),
                    "and the time after it: " + second.secondHalfNanos() + " of " + second.nanos());
            second.store().fileKeptIndex(); // as when Streams takes the store: the terms both catch-ups kept
            OfflineRebuild.Result rebuilt = OfflineRebuild.rebuild(kafka, topic);
            RegistryView view = new RegistryView(new StoreKv(second.store()));
            assertEquals(rebuilt.view().position().digestHex(), view.position().digestHex());
            assertEquals(ViewDigest.of(rebuilt.kv()), ViewDigest.of(new StoreKv(second.store())),
                    "the same bytes as a rebuild in one go");
        } finally {
            second.store().close();
        }
    }
}
