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
        assertEquals(40907, http.post("/associations", request("t-other", "nobody", "value", "")).errorCode());
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
}
