package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The associations API over real HTTP: create, look up by resource name (any namespace with
 * {@code -}), by resource id and by subject, the refusals with Confluent's codes, replace, delete,
 * and a subject protected from deletion while associated. The client's own associated subject
 * name strategy runs against it in ConfluentClientIT.
 */
class AssociationsIT {

    static QuireNode node;
    static Http http;

    @BeforeAll
    static void start() throws Exception {
        node = Nodes.start(Nodes.config("associations-it", Files.createTempDirectory("quire-associations-it"),
                "associations-node"));
        http = new Http(node.httpPort());
        for (String subject : new String[] {"orders-explicit", "orders-key-explicit", "spare"}) {
            assertEquals(200, http.post("/subjects/" + subject + "/versions",
                    Http.schemaBody(Http.record("R" + subject.length(), "{\"name\":\"a\",\"type\":\"int\"}"))).status());
        }
        assertEquals(200, http.post("/subjects/gone/versions", Http.schemaBody(Http.record("Gone",
                "{\"name\":\"a\",\"type\":\"int\"}"))).status());
        assertEquals(200, http.delete("/subjects/gone").status(), "every version soft-deleted");
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static String request(String resourceId, String subject, String role, String extra) {
        return "{\"resourceName\":\"orders\",\"resourceNamespace\":\"lkc-1\",\"resourceId\":\"" + resourceId
                + "\",\"associations\":[{\"subject\":\"" + subject + "\",\"associationType\":\"" + role + "\"" + extra
                + "}]}";
    }

    @Test
    void associationsAreMadeFoundReplacedAndRemoved() {
        Http.Response made = http.post("/associations", request("t-orders", "orders-explicit", "value", ""));
        assertEquals(200, made.status(), made.body());
        assertEquals("topic", made.json().get("resourceType").asText(), "the default resource type");
        assertEquals("STRONG", made.json().at("/associations/0/lifecycle").asText(), "the default lifecycle");
        assertEquals(200, http.post("/associations", request("t-orders", "orders-key-explicit", "key", "")).status());

        JsonNode byName = http.get("/associations/resources/-/orders?associationType=value").json();
        assertEquals(1, byName.size(), byName.toString());
        assertEquals("orders-explicit", byName.get(0).get("subject").asText());
        assertEquals("t-orders", byName.get(0).get("resourceId").asText());
        assertEquals(2, http.get("/associations/resources/lkc-1/orders").json().size());
        assertEquals(0, http.get("/associations/resources/lkc-other/orders").json().size());
        assertEquals(2, http.get("/associations/resources/t-orders").json().size());
        assertEquals(0, http.get("/associations/resources/t-orders?resourceType=schema").json().size());
        assertEquals("key", http.get("/associations/subjects/orders-key-explicit").json().get(0)
                .get("associationType").asText());

        long before = http.get("/admin/position").json().get("offset").asLong();
        assertEquals(40903, http.post("/associations", request("t-orders", "spare", "value", "")).errorCode());
        assertEquals(40905, http.post("/associations", request("t-other", "orders-explicit", "value",
                ",\"lifecycle\":\"WEAK\"")).errorCode());
        assertEquals(40907, http.post("/associations", request("t-other", "gone", "value", "")).errorCode(),
                "a subject whose versions are all soft-deleted");
        assertEquals(42212, http.post("/associations", request("t-other", "spare", "value",
                ",\"lifecycle\":\"WEAK\",\"frozen\":true")).errorCode());
        assertEquals(40904, http.delete("/subjects/orders-explicit").errorCode(), "associated subjects stay");
        assertEquals(before, http.get("/admin/position").json().get("offset").asLong(),
                "every refusal is made at the edge: nothing reached the journal");

        Http.Response replaced = http.put("/associations", request("t-orders", "spare", "value", ""));
        assertEquals(200, replaced.status(), replaced.body());
        assertEquals("spare", http.get("/associations/resources/t-orders?associationType=value").json().get(0)
                .get("subject").asText());
        assertEquals(204, http.delete("/associations/resources/t-orders?associationType=value").status());
        assertEquals(1, http.get("/associations/resources/t-orders").json().size(), "the key stays");
        assertEquals(40410, http.delete("/associations/resources/t-nothing").errorCode());
        assertEquals(200, http.delete("/subjects/orders-explicit").status(), "free again");
    }

    @Test
    void aSchemaInTheRequestIsRegisteredFirst() {
        String body = "{\"resourceName\":\"payments\",\"resourceNamespace\":\"lkc-1\",\"resourceId\":\"t-payments\","
                + "\"associations\":[{\"subject\":\"payments-explicit\",\"schema\":" + Http.schemaBody(
                        Http.record("Payment", "{\"name\":\"amount\",\"type\":\"long\"}")) + "}]}";
        Http.Response made = http.post("/associations", body);
        assertEquals(200, made.status(), made.body());
        assertEquals(1, http.get("/subjects/payments-explicit/versions/latest").json().get("version").asInt());
        assertEquals("payments-explicit", http.get("/associations/resources/-/payments").json().get(0).get("subject")
                .asText());
    }

    /**
     * Confluent's clients create the association of a topic first, then their serializer registers
     * through the associated subject: a subject with no version yet may be associated. The last
     * active version of an associated subject is kept (40907, as Confluent's deleteSchemaVersion).
     */
    @Test
    void aSubjectWithNoVersionYetMayBeAssociatedThenRegisteredThrough() {
        Http.Response made = http.post("/associations", request("t-fresh", "fresh-value", "value", "")
                .replace("\"orders\"", "\"fresh\""));
        assertEquals(200, made.status(), made.body());
        assertEquals(40401, http.get("/subjects/fresh-value/versions").errorCode(), "no version yet");
        assertEquals("fresh-value", http.get("/associations/resources/-/fresh").json().get(0).get("subject").asText());
        register("fresh-value");
        assertEquals(1, http.get("/subjects/fresh-value/versions/latest").json().get("version").asInt());
        assertEquals(40907, http.delete("/subjects/fresh-value/versions/1").errorCode(), "its only active version");
        assertEquals(1, http.get("/subjects/fresh-value/versions").json().size(), "still there");
    }

    static void register(String subject) {
        assertEquals(200, http.post("/subjects/" + subject + "/versions",
                Http.schemaBody(Http.record("B" + Math.abs(subject.hashCode()), "{\"name\":\"a\",\"type\":\"int\"}")))
                .status());
    }

    @Test
    void anAssociationHasAGuidThatNodesAgreeOnAndThatAReplaceBySameSubjectKeeps() {
        register("guid-value");
        assertEquals(200, http.post("/associations", request("t-guid", "guid-value", "value", "")
                .replace("\"orders\"", "\"guids\"")).status());
        String guid = http.get("/associations/resources/t-guid").json().get(0).get("guid").asText();
        assertEquals(36, guid.length(), guid);
        assertEquals(200, http.put("/associations", request("t-guid", "guid-value", "value", ",\"frozen\":true")
                .replace("\"orders\"", "\"guids\"")).status());
        assertEquals(guid, http.get("/associations/subjects/guid-value").json().get(0).get("guid").asText());
    }

    @Test
    void aBatchMutatesEachResourceOnItsOwnAndABatchGetReadsThem() {
        register("batch-a-value");
        register("batch-a-key");
        register("batch-b-value");
        String body = "{\"requests\":["
                + "{\"resourceName\":\"batch-a\",\"resourceNamespace\":\"lkc-1\",\"resourceId\":\"t-batch-a\","
                + "\"associations\":[{\"opType\":\"CREATE\",\"subject\":\"batch-a-value\",\"associationType\":\"value\"},"
                + "{\"opType\":\"CREATE\",\"subject\":\"batch-a-key\",\"associationType\":\"key\"},"
                + "{\"opType\":\"DELETE\",\"associationType\":\"key\"}]},"
                + "{\"resourceName\":\"batch-b\",\"resourceNamespace\":\"lkc-1\",\"resourceId\":\"t-batch-b\","
                + "\"associations\":[{\"opType\":\"CREATE\",\"subject\":\"gone\"}]},"
                + "{\"resourceName\":\"batch-b\",\"resourceNamespace\":\"lkc-1\",\"resourceId\":\"t-batch-b\","
                + "\"associations\":[{\"opType\":\"UPSERT\",\"subject\":\"batch-b-value\",\"lifecycle\":\"WEAK\"}]},"
                + "{\"resourceId\":\"t-batch-c\",\"associations\":[{\"opType\":\"RENAME\"}]}]}";
        Http.Response r = http.post("/associations:batchMutate", body);
        assertEquals(207, r.status(), r.body());
        JsonNode results = r.json().get("results");
        assertEquals(4, results.size(), r.body());
        assertEquals(1, results.get(0).at("/result/associations").size(), "created two, then deleted the key");
        assertEquals("batch-a-value", results.get(0).at("/result/associations/0/subject").asText());
        assertEquals(40907, results.get(1).at("/error/error_code").asInt(), "one refusal is that request's result");
        assertEquals("WEAK", results.get(2).at("/result/associations/0/lifecycle").asText(), "the others go on");
        assertEquals(42212, results.get(3).at("/error/error_code").asInt());
        String offset = r.raw().headers().firstValue("X-Quire-Offset").orElseThrow();

        String get = "{\"requests\":[{\"resourceId\":\"t-batch-a\"},"
                + "{\"resourceName\":\"batch-b\",\"resourceNamespace\":\"-\",\"lifecycle\":\"WEAK\"},"
                + "{\"resourceName\":\"batch-b\"}]}";
        Http.Response got = http.send("POST", "/associations:batchGet?includeSchemas=true", get);
        assertEquals(200, got.status(), got.body());
        JsonNode gets = got.json().get("results");
        assertEquals("batch-a-value", gets.get(0).at("/result/associations/0/subject").asText());
        assertEquals(1, gets.get(0).at("/result/associations/0/schema/version").asInt(), "with includeSchemas");
        assertEquals("t-batch-b", gets.get(1).at("/result/resourceId").asText());
        assertEquals(42212, gets.get(2).at("/error/error_code").asInt(), "a name needs a namespace");
        assertEquals(true, Long.parseLong(offset) > 0);

        long before = http.get("/admin/position").json().get("offset").asLong();
        Http.Response dry = http.post("/associations:batchMutate?dryRun=true", "{\"requests\":[{\"resourceId\":\"t-dry\","
                + "\"resourceName\":\"dry\",\"resourceNamespace\":\"lkc-1\",\"associations\":[{\"opType\":\"CREATE\","
                + "\"subject\":\"spare\",\"lifecycle\":\"WEAK\"}]}]}");
        assertEquals(207, dry.status(), dry.body());
        assertEquals(before, http.get("/admin/position").json().get("offset").asLong(), "a dry run writes nothing");
        assertEquals(0, http.get("/associations/resources/t-dry").json().size());
    }

    @Test
    void cascadingTheLifecycleDeletesTheStrongSubjectAndAFrozenOneGoesOnlySo() {
        register("cascade-value");
        register("cascade-key");
        assertEquals(200, http.post("/associations", "{\"resourceName\":\"cascade\",\"resourceNamespace\":\"lkc-1\","
                + "\"resourceId\":\"t-cascade\",\"associations\":[{\"subject\":\"cascade-value\",\"frozen\":true},"
                + "{\"subject\":\"cascade-key\",\"associationType\":\"key\",\"lifecycle\":\"WEAK\"}]}").status());
        assertEquals(40908, http.delete("/associations/resources/t-cascade").errorCode(),
                "a frozen STRONG association goes only with its subject");
        Http.Response gone = http.delete("/associations/resources/t-cascade?cascadeLifecycle=true");
        assertEquals(204, gone.status(), gone.body());
        assertEquals(40401, http.get("/subjects/cascade-value/versions").errorCode(), "the STRONG subject is gone");
        assertEquals(40401, http.get("/subjects/cascade-value/versions?deleted=true").errorCode(), "permanently");
        assertEquals(200, http.get("/subjects/cascade-key/versions").status(), "the WEAK one's subject stays");
        assertEquals(0, http.get("/associations/resources/t-cascade").json().size());
    }
}
