package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The request and response details today's clients use, over real HTTP: soft-deleted versions as
 * negative numbers, {@code deleted} on referencedby, {@code fetchMaxId}, Avro {@code
 * format=resolved}, the registration time {@code ts}, and the 8.x error code of an incompatible
 * schema (this node runs with {@code --incompatible-error-code 40901}).
 */
class ResponseDetailsIT {

    static QuireNode node;
    static Http http;

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    @BeforeAll
    static void start() throws Exception {
        node = Nodes.start(Nodes.config("details-it", Files.createTempDirectory("quire-details-it"), "details-node",
                "--incompatible-error-code", "40901"));
        http = new Http(node.httpPort());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static long register(String subject, String body) {
        Http.Response r = http.post("/subjects/" + subject + "/versions", body);
        assertEquals(200, r.status(), r.body());
        return r.json().get("id").asLong();
    }

    @Test
    void softDeletedVersionsAsNegativeNumbersAndTheRegistrationTime() {
        long before = System.currentTimeMillis();
        register("neg", Http.schemaBody(Http.record("Neg", NAME)));
        register("neg", Http.schemaBody(Http.record("Neg", NAME, "{\"name\":\"n\",\"type\":\"int\",\"default\":0}")));
        assertEquals(200, http.delete("/subjects/neg/versions/1").status());
        assertEquals("[-1,2]", http.get("/subjects/neg/versions?deleted=true&deletedAsNegative=true").body());
        assertEquals("[1,2]", http.get("/subjects/neg/versions?deleted=true").body());
        assertEquals("[2]", http.get("/subjects/neg/versions?deletedAsNegative=true").body());
        long ts = http.get("/subjects/neg/versions/2").json().get("ts").asLong();
        assertTrue(ts >= before && ts <= System.currentTimeMillis(), "ts " + ts + " is when it was registered");
    }

    @Test
    void referencedByCountsSoftDeletedUsersOnlyWhenAsked() throws Exception {
        String dep = Http.record("Dep", NAME);
        register("dep", Http.schemaBody(dep));
        String user = "{\"type\":\"record\",\"name\":\"User\",\"fields\":[{\"name\":\"d\",\"type\":\"Dep\"}]}";
        long userId = register("user", Http.JSON.writeValueAsString(Map.of("schema", user,
                "references", List.of(Map.of("name", "Dep", "subject", "dep", "version", 1)))));
        assertEquals("[" + userId + "]", http.get("/subjects/dep/versions/1/referencedby").body());

        JsonNode resolved = http.get("/schemas/ids/" + userId + "?format=resolved").json();
        assertEquals("Dep", Http.JSON.readTree(resolved.get("schema").asText()).at("/fields/0/type/name").asText(),
                "the referenced record inlined: " + resolved);
        assertEquals(user, http.get("/schemas/ids/" + userId).json().get("schema").asText(), "stored by name");
        assertEquals(resolved.get("schema"), http.get("/subjects/user/versions/1?format=resolved").json().get("schema"));

        assertEquals(200, http.delete("/subjects/user/versions/1").status());
        assertEquals("[]", http.get("/subjects/dep/versions/1/referencedby").body(), "its only user is soft-deleted");
        assertEquals("[" + userId + "]", http.get("/subjects/dep/versions/1/referencedby?deleted=true").body());
        assertEquals(42206, http.delete("/subjects/dep/versions/1?permanent=true").errorCode(),
                "a soft-deleted user still protects what it references");

        long max = http.get("/schemas/ids/1?fetchMaxId=true").json().get("maxId").asLong();
        assertTrue(max >= userId, "maxId " + max + " is the highest id stored");
        assertTrue(http.get("/schemas/ids/1").json().path("maxId").isMissingNode(), "only when asked");
    }

    @Test
    void theServerMetadataNamesTheKafkaClusterAndTheRegistry() throws Exception {
        JsonNode id = http.get("/v1/metadata/id").json();
        String kafka;
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                Map.of("bootstrap.servers", (Object) SharedKafka.bootstrapServers()))) {
            kafka = admin.describeCluster().clusterId().get();
        }
        assertEquals(kafka, id.at("/scope/clusters/kafka-cluster").asText());
        assertEquals("details-it", id.at("/scope/clusters/schema-registry-cluster").asText(), "the journal topic");
        assertTrue(id.at("/scope/path").isArray());
        assertTrue(http.get("/v1/metadata/version").json().has("version"));
    }

    @Test
    void anIncompatibleSchemaIs409With40901WhenConfigured() {
        register("strict", Http.schemaBody(Http.record("S", NAME)));
        Http.Response r = http.post("/subjects/strict/versions",
                Http.schemaBody(Http.record("S", "{\"name\":\"name\",\"type\":\"int\"}")));
        assertEquals(409, r.status(), r.body());
        assertEquals(40901, r.errorCode());
    }

    @Test
    void anAliasedSubjectIsReadAndWrittenAsTheSubjectItNames() {
        long id = register("real-value", Http.schemaBody(Http.record("Real", NAME)));
        assertEquals(200, http.put("/config/alias-value", "{\"alias\":\"real-value\"}").status());
        JsonNode latest = http.get("/subjects/alias-value/versions/latest").json();
        assertEquals("real-value", latest.get("subject").asText(), latest.toString());
        assertEquals(id, latest.get("id").asLong());
        assertEquals(id, register("alias-value", Http.schemaBody(Http.record("Real", NAME))), "the same schema, found");
        assertEquals("[1]", http.get("/subjects/real-value/versions").body(), "nothing new under the real subject");
        assertEquals(Http.record("Real", NAME), http.get("/schemas/ids/" + id + "?subject=alias-value").json()
                .get("schema").asText());
        assertEquals("real-value", http.get("/config/alias-value").json().get("alias").asText(),
                "the alias's own config is still its own");
        assertEquals(40401, http.get("/subjects/no-alias-value/versions").errorCode());
    }

    @Test
    void validateFieldsKeepsReservedFieldsReservedAndUnused() {
        assertEquals(200, http.put("/config/reserved-value", "{\"validateFields\":true,\"compatibility\":\"NONE\"}")
                .status());
        String reservesAge = ",\"metadata\":{\"properties\":{\"confluent:reserved\":\"age, height\"}}";
        String v1 = Http.schemaBody(Http.record("Person", NAME));
        assertEquals(200, http.post("/subjects/reserved-value/versions", v1.substring(0, v1.length() - 1) + reservesAge
                + "}").status());
        String v2 = Http.schemaBody(Http.record("Person", NAME, "{\"name\":\"nick\",\"type\":\"string\",\"default\":\"\"}"));
        Http.Response dropped = http.post("/subjects/reserved-value/versions", v2.substring(0, v2.length() - 1)
                + ",\"metadata\":{\"properties\":{\"confluent:reserved\":\"age\"}}}");
        assertEquals(409, dropped.status(), dropped.body());
        assertTrue(dropped.body().contains("reserved field height removed"), dropped.body());
        String usesAge = Http.schemaBody(Http.record("Person", NAME, "{\"name\":\"age\",\"type\":\"int\",\"default\":0}"));
        Http.Response conflict = http.post("/subjects/reserved-value/versions", usesAge);
        assertEquals(409, conflict.status(), "the reservation is inherited, and age may not be a field");
        assertTrue(conflict.body().contains("conflicts with the reserved field age"), conflict.body());
        assertEquals(200, http.post("/subjects/reserved-value/versions", v2).status(), "kept and unused: fine");
        assertEquals(200, http.post("/subjects/unchecked-value/versions", usesAge.substring(0, usesAge.length() - 1)
                + reservesAge + "}").status(), "without validateFields nothing is checked");
    }
}
