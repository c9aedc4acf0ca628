package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Data contracts over real HTTP on two nodes of one journal: a contract registered on node A is
 * served by node B (read-your-writes with the offset header), in every body that carries a
 * schema, and found by its metadata.
 */
class DataContractIT {

    static final List<QuireNode> nodes = new ArrayList<>();
    static Http a;
    static Http b;

    static final String ORDER = Http.record("Order", "{\"name\":\"id\",\"type\":\"long\"}");
    static final String ORDER_V2 = Http.record("Order", "{\"name\":\"id\",\"type\":\"long\"}",
            "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}");
    static final String METADATA = "{\"tags\":{\"Order.id\":[\"PII\"]},\"properties\":{\"owner\":\"team-a\",\"major\":\"1\"},"
            + "\"sensitive\":[\"id\"]}";
    static final String RULES = "{\"domainRules\":[{\"name\":\"checkId\",\"kind\":\"CONDITION\",\"mode\":\"WRITE\","
            + "\"type\":\"CEL\",\"expr\":\"message.id > 0\",\"onFailure\":\"ERROR\"}]}";

    @BeforeAll
    static void start() throws Exception {
        for (String id : List.of("contract-a", "contract-b")) {
            nodes.add(Nodes.start(Nodes.config("contract-it", Files.createTempDirectory("quire-" + id), id)));
        }
        a = new Http(nodes.get(0).httpPort());
        b = new Http(nodes.get(1).httpPort());
    }

    @AfterAll
    static void stop() {
        nodes.forEach(QuireNode::close);
    }

    static String body(String schema, String extra) {
        return "{\"schema\":" + Http.JSON.valueToTree(schema) + extra + "}";
    }

    @Test
    void aContractRegisteredOnOneNodeIsServedByTheOther() {
        Http.Response registered = a.post("/subjects/orders-value/versions",
                body(ORDER, ",\"metadata\":" + METADATA + ",\"ruleSet\":" + RULES + ",\"somethingNew\":1"));
        assertEquals(200, registered.status(), registered.body());
        JsonNode answer = registered.json();
        long id = answer.get("id").asLong();
        assertEquals(1, answer.get("version").asInt(), "with a contract the answer is the stored version");
        assertEquals("team-a", answer.at("/metadata/properties/owner").asText());
        String offset = Long.toString(registered.offset());

        JsonNode byId = b.get("/schemas/ids/" + id, "X-Quire-Min-Offset", offset).json();
        assertEquals("PII", byId.at("/metadata/tags/Order.id/0").asText());
        assertEquals("id", byId.at("/metadata/sensitive/0").asText());
        assertEquals("message.id > 0", byId.at("/ruleSet/domainRules/0/expr").asText());
        assertEquals("CONDITION", byId.at("/ruleSet/domainRules/0/kind").asText());
        JsonNode latest = b.get("/subjects/orders-value/versions/latest", "X-Quire-Min-Offset", offset).json();
        assertEquals(byId.get("metadata"), latest.get("metadata"));
        assertEquals(byId.get("ruleSet"), latest.get("ruleSet"));

        Http.Response v2 = b.post("/subjects/orders-value/versions", body(ORDER_V2, ""));
        assertEquals(200, v2.status(), v2.body());
        assertEquals("team-a", v2.json().at("/metadata/properties/owner").asText(), "inherited from version 1");
        Http.Response other = a.post("/subjects/orders-value/versions", body(ORDER,
                ",\"metadata\":{\"properties\":{\"owner\":\"team-b\",\"major\":\"2\"}}"));
        assertNotEquals(id, other.json().get("id").asLong(), "another contract is another id");

        String after = Long.toString(other.offset());
        JsonNode major1 = a.get("/subjects/orders-value/metadata?key=major&value=1", "X-Quire-Min-Offset", after).json();
        assertEquals(2, major1.get("version").asInt(), "the latest version whose metadata has major=1");
        assertEquals(3, b.get("/subjects/orders-value/metadata?key=owner&value=team-b", "X-Quire-Min-Offset", after)
                .json().get("version").asInt());
        assertEquals(40403, b.get("/subjects/orders-value/metadata?key=major&value=9").json().get("error_code").asInt());
        assertEquals(40401, b.get("/subjects/nobody/metadata?key=major&value=1").json().get("error_code").asInt());

        JsonNode lookedUp = b.post("/subjects/orders-value", body(ORDER, "")).json();
        assertEquals(3, lookedUp.get("version").asInt(), "the bare schema finds its newest version");
        assertFalse(b.get("/schemas/ids/" + id + "?format=serialized").json().path("metadata").isMissingNode());
    }

    @Test
    void aBrokenRuleSetIs42210AndNothingIsWritten() {
        long before = a.get("/admin/position").json().get("offset").asLong();
        Http.Response r = a.post("/subjects/broken-value/versions", body(ORDER,
                ",\"ruleSet\":{\"migrationRules\":[{\"name\":\"up\",\"mode\":\"WRITE\",\"type\":\"JSONATA\",\"expr\":\"$\"}]}"));
        assertEquals(422, r.status(), r.body());
        assertEquals(42210, r.json().get("error_code").asInt());
        assertEquals("Migration rules can only be UPGRADE, DOWNGRADE, UPDOWN", r.json().get("message").asText());
        assertEquals(before, a.get("/admin/position").json().get("offset").asLong());
    }

    @Test
    void theConfigTakesAnySubsetOfItsFieldsAndNullClearsOne() {
        Http.Response group = a.put("/config/grouped-value", "{\"compatibilityGroup\":\"major\"}");
        assertEquals(200, group.status(), group.body());
        assertEquals("major", group.json().get("compatibilityGroup").asText());
        Http.Response defaults = b.put("/config/grouped-value", "{\"defaultMetadata\":{\"properties\":{\"owner\":\"team-a\"}},"
                + "\"overrideRuleSet\":" + RULES + "}");
        assertEquals(200, defaults.status(), defaults.body());
        JsonNode config = a.get("/config/grouped-value", "X-Quire-Min-Offset", Long.toString(defaults.offset())).json();
        assertEquals("major", config.get("compatibilityGroup").asText(), "an update keeps what it does not name");
        assertEquals("team-a", config.at("/defaultMetadata/properties/owner").asText());
        assertEquals("checkId", config.at("/overrideRuleSet/domainRules/0/name").asText());
        assertFalse(config.has("compatibilityLevel"), "the subject has no level of its own");

        Http.Response registered = a.post("/subjects/grouped-value/versions", body(ORDER, ""));
        assertEquals("team-a", registered.json().at("/metadata/properties/owner").asText(), "the default applies");
        assertEquals("checkId", registered.json().at("/ruleSet/domainRules/0/name").asText(), "the override applies");

        Http.Response cleared = a.put("/config/grouped-value", "{\"compatibilityGroup\":null}");
        assertEquals(200, cleared.status(), cleared.body());
        JsonNode after = b.get("/config/grouped-value", "X-Quire-Min-Offset", Long.toString(cleared.offset())).json();
        assertFalse(after.has("compatibilityGroup"), after.toString());
        assertEquals("team-a", after.at("/defaultMetadata/properties/owner").asText());
        assertEquals(42203, a.put("/config/grouped-value", "{}").json().get("error_code").asInt());
    }

    @Test
    void everySchemaHasAGuidTheSameOnEveryNodeAndIsFoundByIt() {
        Http.Response registered = a.post("/subjects/guid-value/versions", body(ORDER, ""));
        assertEquals(200, registered.status(), registered.body());
        String guid = registered.json().get("guid").asText();
        long id = registered.json().get("id").asLong();
        String offset = Long.toString(registered.offset());
        JsonNode byGuid = b.get("/schemas/guids/" + guid, "X-Quire-Min-Offset", offset).json();
        assertEquals(ORDER, byGuid.get("schema").asText());
        assertEquals(guid, byGuid.get("guid").asText());
        assertEquals("[{\"context\":\".\",\"id\":" + id + "}]", b.get("/schemas/guids/" + guid + "/ids").body());
        assertEquals(guid, b.get("/schemas/ids/" + id).json().get("guid").asText(), "the same GUID on the other node");
        assertEquals(guid, b.get("/subjects/guid-value/versions/1").json().get("guid").asText());
        assertEquals(guid, b.post("/subjects/guid-value", body(ORDER, "")).json().get("guid").asText());
        Http.Response withContract = a.post("/subjects/guid-contract-value/versions",
                body(ORDER, ",\"metadata\":" + METADATA));
        assertNotEquals(guid, withContract.json().get("guid").asText(), "the contract is part of the content");
        assertEquals(40403, b.get("/schemas/guids/00000000-0000-0000-0000-000000000000").errorCode());
        assertEquals(40403, b.get("/schemas/guids/not-a-guid").errorCode());
        assertEquals("[]", b.get("/schemas/guids/not-a-guid/ids").body());
    }
}
