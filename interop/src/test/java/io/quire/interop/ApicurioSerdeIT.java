package io.quire.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Apicurio's own Avro serde (3.1, the version Quarkus 3.33 ships), unmodified, against a Quire node
 * through Apicurio's v3 API: auto-registration, produce by searching the content, latest version,
 * a schema with a reference, consume by content id and by global id; and the same ids through the
 * Confluent API of the same node.
 */
class ApicurioSerdeIT {

    static final ObjectMapper JSON = new ObjectMapper();

    static final Schema USER = new Schema.Parser().parse("""
            {"type":"record","name":"User","namespace":"quire.interop","fields":[
              {"name":"name","type":"string"},{"name":"age","type":"int"}]}""");

    static QuireProcess node;

    @BeforeAll
    static void start() throws Exception {
        node = QuireProcess.start("apicurio-serde-node", Files.createTempDirectory("quire-apicurio-serde"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    static Map<String, Object> config(boolean autoRegister) {
        Map<String, Object> c = new HashMap<>();
        c.put("apicurio.registry.url", node.apicurioUrl());
        c.put("apicurio.registry.auto-register", Boolean.toString(autoRegister));
        return c;
    }

    static AvroKafkaSerializer<GenericRecord> serializer(Map<String, Object> config) {
        AvroKafkaSerializer<GenericRecord> s = new AvroKafkaSerializer<>();
        s.configure(config, false);
        return s;
    }

    static AvroKafkaDeserializer<GenericRecord> deserializer(Map<String, Object> config) {
        AvroKafkaDeserializer<GenericRecord> d = new AvroKafkaDeserializer<>();
        d.configure(config, false);
        return d;
    }

    static GenericRecord user(String name, int age) {
        GenericRecord r = new GenericData.Record(USER);
        r.put("name", name);
        r.put("age", age);
        return r;
    }

    /** The id in a record's wire format: magic byte 0, then four bytes. */
    static int wireId(byte[] bytes) {
        assertEquals(0, bytes[0], "magic byte");
        return ByteBuffer.wrap(bytes, 1, 4).getInt();
    }

    static JsonNode json(String body) throws Exception {
        return JSON.readTree(body);
    }

    @Test
    void autoRegisteredRecordsCarryTheConfluentIdAndAnotherConsumerReadsThem() throws Exception {
        byte[] bytes;
        try (var ser = serializer(config(true))) {
            bytes = ser.serialize("users", user("ada", 36));
        }
        int id = wireId(bytes);
        JsonNode v1 = json(node.get("/subjects/users-value/versions/1").body());
        assertEquals(id, v1.get("id").asInt(), "the content id the serde wrote is the subject version's Confluent id");

        try (var deser = deserializer(config(false))) {
            GenericRecord back = deser.deserialize("users", bytes);
            assertEquals("ada", back.get("name").toString());
            assertEquals(36, back.get("age"));
        }
        // The same schema again is the same version: no second version appears.
        try (var ser = serializer(config(true))) {
            assertEquals(id, wireId(ser.serialize("users", user("bob", 41))));
        }
        assertEquals("[1]", node.get("/subjects/users-value/versions").body());
    }

    @Test
    void withoutAutoRegistrationTheSerdeFindsTheVersionByItsContent() throws Exception {
        Schema order = new Schema.Parser().parse("""
                {"type":"record","name":"Order","namespace":"quire.interop","fields":[{"name":"sku","type":"string"}]}""");
        // Registered by a Confluent client, in Confluent's formatting.
        var registered = node.send("POST", "/subjects/orders-value/versions", "application/vnd.schemaregistry.v1+json",
                JSON.writeValueAsString(Map.of("schema", order.toString(true))));
        assertEquals(200, registered.statusCode(), registered.body());
        int confluentId = json(registered.body()).get("id").asInt();

        GenericRecord r = new GenericData.Record(order);
        r.put("sku", "A-1");
        try (var ser = serializer(config(false))) {
            byte[] bytes = ser.serialize("orders", r);
            assertEquals(confluentId, wireId(bytes));
            try (var deser = deserializer(config(false))) {
                assertEquals("A-1", deser.deserialize("orders", bytes).get("sku").toString());
            }
        }
        // An unknown schema without auto-registration fails on the producer, and nothing is registered.
        Schema unknown = new Schema.Parser().parse("""
                {"type":"record","name":"Unknown","fields":[{"name":"x","type":"long"}]}""");
        GenericRecord u = new GenericData.Record(unknown);
        u.put("x", 1L);
        try (var ser = serializer(config(false))) {
            assertThrows(RuntimeException.class, () -> ser.serialize("unknowns", u));
        }
        assertEquals(404, node.get("/subjects/unknowns-value/versions").statusCode());
    }

    @Test
    void aSchemaWithANestedRecordIsRegisteredWithAReferenceAndReadBack() throws Exception {
        Schema person = new Schema.Parser().parse("""
                {"type":"record","name":"Person","namespace":"quire.interop","fields":[
                  {"name":"name","type":"string"},
                  {"name":"home","type":{"type":"record","name":"Address","fields":[{"name":"city","type":"string"}]}}]}""");
        GenericRecord home = new GenericData.Record(person.getField("home").schema());
        home.put("city", "Lyon");
        GenericRecord p = new GenericData.Record(person);
        p.put("name", "eve");
        p.put("home", home);
        byte[] bytes;
        try (var ser = serializer(config(true))) {
            bytes = ser.serialize("people", p);
        }
        JsonNode latest = json(node.get("/subjects/people-value/versions/latest").body());
        assertEquals(wireId(bytes), latest.get("id").asInt());
        JsonNode ref = latest.get("references").get(0);
        assertEquals("quire.interop.Address", ref.get("name").asText(), latest.toString());
        assertEquals(200, node.get("/subjects/" + ref.get("subject").asText() + "/versions/"
                + ref.get("version").asInt()).statusCode(), "the referenced schema is a subject of its own");

        try (var deser = deserializer(config(false))) {
            GenericRecord back = deser.deserialize("people", bytes);
            assertEquals("Lyon", ((GenericRecord) back.get("home")).get("city").toString());
        }
    }

    @Test
    void globalIdsNameVersionsAndFindLatestResolvesTheNewestOne() throws Exception {
        Schema v1 = new Schema.Parser().parse("""
                {"type":"record","name":"Event","namespace":"quire.interop","fields":[{"name":"id","type":"string"}]}""");
        Schema v2 = new Schema.Parser().parse("""
                {"type":"record","name":"Event","namespace":"quire.interop","fields":[{"name":"id","type":"string"},
                  {"name":"at","type":"long","default":0}]}""");
        Map<String, Object> byGlobal = config(true);
        byGlobal.put("apicurio.registry.use-id", "globalId");
        byte[] first;
        byte[] second;
        try (var ser = serializer(byGlobal)) {
            GenericRecord e1 = new GenericData.Record(v1);
            e1.put("id", "e-1");
            first = ser.serialize("events", e1);
            GenericRecord e2 = new GenericData.Record(v2);
            e2.put("id", "e-2");
            e2.put("at", 7L);
            second = ser.serialize("events", e2);
        }
        long g1 = wireId(first);
        long g2 = wireId(second);
        assertNotEquals(g1, g2, "each version has its own global id");
        JsonNode meta = json(node.get("/apis/registry/v3/groups/default/artifacts/events-value/versions/2").body());
        assertEquals(g2, meta.get("globalId").asLong());
        assertEquals(json(node.get("/subjects/events-value/versions/2").body()).get("id").asLong(),
                meta.get("contentId").asLong());
        try (var deser = deserializer(byGlobal)) {
            assertEquals("e-1", deser.deserialize("events", first).get("id").toString());
            assertEquals(7L, deser.deserialize("events", second).get("at"));
        }

        Map<String, Object> latest = config(false);
        latest.put("apicurio.registry.find-latest", "true");
        try (var ser = serializer(latest)) {
            GenericRecord e2 = new GenericData.Record(v2);
            e2.put("id", "e-3");
            e2.put("at", 9L);
            byte[] bytes = ser.serialize("events", e2);
            assertEquals(meta.get("contentId").asInt(), wireId(bytes), "the latest version's content id");
        }
    }

    @Test
    void anIncompatibleChangeIsRefusedWithApicuriosProblemBody() throws Exception {
        Schema v1 = new Schema.Parser().parse("""
                {"type":"record","name":"Account","namespace":"quire.interop","fields":[{"name":"id","type":"string"}]}""");
        Schema breaking = new Schema.Parser().parse("""
                {"type":"record","name":"Account","namespace":"quire.interop","fields":[{"name":"id","type":"string"},
                  {"name":"owner","type":"string"}]}""");
        try (var ser = serializer(config(true))) {
            GenericRecord a = new GenericData.Record(v1);
            a.put("id", "a-1");
            ser.serialize("accounts", a);
            GenericRecord b = new GenericData.Record(breaking);
            b.put("id", "a-2");
            b.put("owner", "x");
            assertThrows(RuntimeException.class, () -> ser.serialize("accounts", b));
        }
        assertEquals("[1]", node.get("/subjects/accounts-value/versions").body(), "the refused version left nothing");
        var refused = node.send("POST", "/apis/registry/v3/groups/default/artifacts?ifExists=FIND_OR_CREATE_VERSION",
                "application/json", JSON.writeValueAsString(Map.of("artifactId", "accounts-value", "artifactType", "AVRO",
                        "firstVersion", Map.of("content", Map.of("content", breaking.toString(),
                                "contentType", "application/json")))));
        assertEquals(400, refused.statusCode());
        JsonNode problem = json(refused.body());
        assertEquals("RuleViolationException", problem.get("name").asText());
        assertEquals(400, problem.get("status").asInt());
        assertTrue(problem.get("causes").get(0).get("description").asText().contains("owner"), refused.body());
    }

    @Test
    void contentHashesAndReferencesReadAsApicurioAnswersThem() throws Exception {
        try (var ser = serializer(config(true))) {
            ser.serialize("hashes", user("h", 1));
        }
        JsonNode v = json(node.get("/apis/registry/v3/groups/default/artifacts/hashes-value/versions/branch=latest").body());
        String content = node.get("/apis/registry/v3/ids/contentIds/" + v.get("contentId").asLong()).body();
        String hash = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(content, node.get("/apis/registry/v3/ids/contentHashes/" + hash).body());
        assertEquals("[]", node.get("/apis/registry/v3/ids/contentHashes/" + hash + "/references").body());
        var missing = node.get("/apis/registry/v3/ids/contentIds/999999");
        assertEquals(404, missing.statusCode());
        assertEquals("ContentNotFoundException", json(missing.body()).get("name").asText());
        assertEquals("ENABLED", v.get("state").asText());
    }
}
