package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import io.quire.node.ops.ImportConfluentCommand;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code import-confluent} against a topic written in Confluent Schema Registry's own record
 * format (JSON keys and values, tombstones, soft and subject deletes, configs, modes, a named
 * context): the Quire node ends with the same ids, versions, deletions and settings; a second run
 * changes nothing; ids handed out afterwards never collide with imported ones.
 */
class ImportConfluentIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";
    static final String AGE = "{\"name\":\"age\",\"type\":\"int\",\"default\":0}";

    static String schemaKey(String subject, int version) {
        return "{\"keytype\":\"SCHEMA\",\"subject\":\"" + subject + "\",\"version\":" + version + ",\"magic\":1}";
    }

    static String schemaValue(String subject, int version, long id, String schema, boolean deleted) throws Exception {
        return Http.JSON.writeValueAsString(Map.of("subject", subject, "version", version, "id", id, "schema", schema,
                "deleted", deleted));
    }

    /** A schema value as Confluent 7.4+ writes it for a version with a data contract. */
    static String withContract(String value, String metadata, String ruleSet) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode v = (com.fasterxml.jackson.databind.node.ObjectNode)
                Http.JSON.readTree(value);
        v.set("metadata", Http.JSON.readTree(metadata));
        v.set("ruleSet", Http.JSON.readTree(ruleSet));
        return v.toString();
    }

    @Test
    void importsAConfluentSchemasTopicWithIdsVersionsDeletesAndSettings() throws Exception {
        String source = "confluent-schemas-it";
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", SharedKafka.bootstrapServers());
        try (Admin admin = Admin.create(kafka)) {
            admin.createTopics(List.of(new NewTopic(source, 1, (short) 1))).all().get();
        }
        String a1 = record("A", NAME);
        String a2 = record("A", NAME, AGE);
        String c1 = record("C", NAME);
        String c2 = record("C", NAME, AGE);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(kafka, new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"NOOP\",\"magic\":0}", null));
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":0}",
                    "{\"compatibilityLevel\":\"FULL\"}"));
            p.send(new ProducerRecord<>(source, schemaKey("a", 1), schemaValue("a", 1, 1, a1, false)));
            p.send(new ProducerRecord<>(source, schemaKey("a", 2), withContract(schemaValue("a", 2, 2, a2, false),
                    "{\"properties\":{\"owner\":\"team-a\"}}", "{\"domainRules\":[{\"name\":\"r\","
                            + "\"kind\":\"CONDITION\",\"mode\":\"WRITE\",\"type\":\"CEL\",\"expr\":\"true\"}]}")));
            p.send(new ProducerRecord<>(source, schemaKey("b", 1), schemaValue("b", 1, 1, a1, false)));
            p.send(new ProducerRecord<>(source, schemaKey("c", 1), schemaValue("c", 1, 7, c1, false)));
            p.send(new ProducerRecord<>(source, schemaKey("c", 2), schemaValue("c", 2, 8, c2, false)));
            p.send(new ProducerRecord<>(source, schemaKey("c", 2), schemaValue("c", 2, 8, c2, true)));
            p.send(new ProducerRecord<>(source, schemaKey("d", 1), schemaValue("d", 1, 10, record("D", NAME), false)));
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"DELETE_SUBJECT\",\"subject\":\"d\",\"magic\":0}",
                    "{\"subject\":\"d\",\"version\":1}"));
            p.send(new ProducerRecord<>(source, schemaKey("e", 1), schemaValue("e", 1, 11, record("E", NAME), false)));
            p.send(new ProducerRecord<>(source, schemaKey("e", 1), null));
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"CONTEXT\",\"tenant\":\"default\",\"context\":\".other\","
                    + "\"magic\":0}", "{}"));
            p.send(new ProducerRecord<>(source, schemaKey(":.other:x", 1), schemaValue(":.other:x", 1, 50,
                    record("X", NAME), false)));
            p.send(new ProducerRecord<>(source, schemaKey(":.other:y", 1), schemaValue(":.other:y", 1, 1,
                    record("Y", NAME), false))); // id 1 is other content in this context
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"CONFIG\",\"subject\":\":.other:\",\"magic\":0}",
                    "{\"compatibilityLevel\":\"NONE\"}"));
            String assocKey = "{\"keytype\":\"ASSOC\",\"tenant\":\"default\",\"resourceName\":\"orders\","
                    + "\"resourceNamespace\":\"lkc-1\",\"resourceType\":\"topic\",\"associationType\":\"%s\","
                    + "\"subject\":\"%s\",\"magic\":0}";
            String assocValue = "{\"subject\":\"%s\",\"guid\":\"6f1e0a2c-0000-4000-8000-00000000000%d\","
                    + "\"tenant\":\"default\",\"resourceName\":\"orders\",\"resourceNamespace\":\"lkc-1\","
                    + "\"resourceId\":\"t-orders\",\"resourceType\":\"topic\",\"associationType\":\"%s\","
                    + "\"lifecycle\":\"%s\",\"frozen\":false}";
            p.send(new ProducerRecord<>(source, String.format(assocKey, "value", "a"),
                    String.format(assocValue, "a", 1, "value", "STRONG")));
            p.send(new ProducerRecord<>(source, String.format(assocKey, "key", "b"),
                    String.format(assocValue, "b", 2, "key", "WEAK")));
            p.send(new ProducerRecord<>(source, String.format(assocKey, "key", "b"), null)); // removed again
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"CONFIG\",\"subject\":\"a\",\"magic\":0}",
                    "{\"compatibilityLevel\":\"FORWARD\"}"));
            p.send(new ProducerRecord<>(source, "{\"keytype\":\"MODE\",\"subject\":\"b\",\"magic\":0}",
                    "{\"mode\":\"READONLY\"}"));
            p.flush();
        }

        try (QuireNode node = Nodes.start(Nodes.config("import-confluent-it",
                Files.createTempDirectory("quire-import-confluent"), "import-confluent-node"))) {
            Http http = new Http(node.httpPort());
            String url = "http://127.0.0.1:" + node.httpPort();
            OperatorCommandsIT.Run first = OperatorCommandsIT.run(ImportConfluentCommand::run,
                    "--source-bootstrap-servers", SharedKafka.bootstrapServers(), "--source-topic", source,
                    "--node", url);
            assertEquals(0, first.code(), first.output());
            assertTrue(first.output().contains("imported 8 of 8 subject versions (2 soft-deleted)"), first.output());
            assertTrue(first.output().contains("(0 records Quire cannot read)"), first.output());

            assertEquals(a1, http.get("/schemas/ids/1").json().get("schema").asText());
            assertEquals(1, http.get("/subjects/b/versions/1").json().get("id").asLong());
            assertEquals("[1,2]", http.get("/subjects/a/versions").body());
            assertEquals(2, http.get("/subjects/a/versions/2").json().get("id").asLong());
            assertEquals("team-a", http.get("/schemas/ids/2").json().at("/metadata/properties/owner").asText(),
                    "the data contract comes along");
            assertEquals("CEL", http.get("/subjects/a/versions/2").json().at("/ruleSet/domainRules/0/type").asText());
            assertEquals("[1]", http.get("/subjects/c/versions").body());
            assertEquals("[1,2]", http.get("/subjects/c/versions?deleted=true").body());
            assertEquals(c2, http.get("/schemas/ids/8").json().get("schema").asText(), "a soft-deleted id still resolves");
            assertEquals("[\":.other:x\",\":.other:y\",\"a\",\"b\",\"c\"]", http.get("/subjects").body());
            assertEquals("[\":.other:x\",\":.other:y\",\"a\",\"b\",\"c\",\"d\"]", http.get("/subjects?deleted=true").body());
            assertEquals("[\":.other:x\",\":.other:y\"]", http.get("/subjects?subjectPrefix=:.other:").body());
            assertEquals(40403, http.get("/schemas/ids/11").errorCode(), "permanently deleted in the source");
            assertEquals(40403, http.get("/schemas/ids/50").errorCode(), "id 50 is in context .other only");
            assertEquals(record("X", NAME), http.get("/schemas/ids/50?subject=:.other:").json().get("schema").asText());
            assertEquals(record("Y", NAME), http.get("/contexts/.other/schemas/ids/1").json().get("schema").asText(),
                    "the same id, other content, in the named context");
            assertEquals(a1, http.get("/schemas/ids/1").json().get("schema").asText());
            assertEquals("[\".\",\".other\"]", http.get("/contexts").body());
            assertEquals("NONE", http.get("/contexts/.other/config").json().get("compatibilityLevel").asText());
            assertTrue(first.output().contains(", 1 associations,"), first.output());
            JsonNode associated = http.get("/associations/resources/t-orders").json();
            assertEquals(1, associated.size(), associated.toString());
            assertEquals("a", associated.get(0).get("subject").asText());
            assertEquals("lkc-1", associated.get(0).get("resourceNamespace").asText());
            assertEquals("FORWARD", http.get("/config/a").json().get("compatibilityLevel").asText());
            assertEquals("FULL", http.get("/config").json().get("compatibilityLevel").asText());
            assertEquals("READONLY", http.get("/mode/b").json().get("mode").asText());
            assertEquals("READWRITE", http.get("/mode").json().get("mode").asText());

            OperatorCommandsIT.Run second = OperatorCommandsIT.run(ImportConfluentCommand::run,
                    "--source-bootstrap-servers", SharedKafka.bootstrapServers(), "--source-topic", source,
                    "--node", url, "--force", "true");
            assertEquals(0, second.code(), second.output());
            assertTrue(second.output().contains("imported 8 of 8 subject versions (2 soft-deleted)"), second.output());
            assertEquals("[1,2]", http.get("/subjects/a/versions").body());
            assertEquals("READONLY", http.get("/mode/b").json().get("mode").asText());

            for (int i = 0; i < 12; i++) {
                Http.Response r = http.post("/subjects/new-" + i + "/versions", schemaBody(record("New" + i, NAME)));
                assertEquals(200, r.status(), r.body());
                long id = r.json().get("id").asLong();
                assertFalse(List.of(1L, 2L, 7L, 8L, 10L).contains(id), "imported id " + id + " handed out again");
            }
        }
    }
}
