package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Schema contexts over real HTTP on two nodes: qualified subjects ({@code :.ctx:s}), the
 * {@code /contexts/{ctx}/…} prefix on every resource, ids and content identity per context,
 * settings falling back subject → context → registry, references read in their schema's context,
 * {@code referenceFormat=qualified}, {@code GET /contexts} and {@code DELETE /contexts/{ctx}}.
 * What node A writes, node B serves (offset header).
 */
class ContextsIT {

    static final List<QuireNode> nodes = new ArrayList<>();
    static Http a;
    static Http b;

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";
    static final String AGE = "{\"name\":\"age\",\"type\":\"int\"}";

    @BeforeAll
    static void start() throws Exception {
        for (String id : List.of("ctx-a", "ctx-b")) {
            nodes.add(Nodes.start(Nodes.config("contexts-it", Files.createTempDirectory("quire-" + id), id)));
        }
        a = new Http(nodes.get(0).httpPort());
        b = new Http(nodes.get(1).httpPort());
    }

    @AfterAll
    static void stop() {
        nodes.forEach(QuireNode::close);
    }

    static Http.Response ok(Http.Response r) {
        assertEquals(200, r.status(), r.body());
        return r;
    }

    static String at(Http.Response written) {
        return Long.toString(written.offset());
    }

    @Test
    void theSameSchemaGetsAnIdPerContextAndEachIdIsReadInItsContext() {
        String user = Http.schemaBody(Http.record("User", NAME));
        long plain = ok(a.post("/subjects/users-value/versions", user)).json().get("id").asLong();
        Http.Response inStaging = ok(a.post("/subjects/:.staging:users-value/versions", user));
        long staged = inStaging.json().get("id").asLong();
        assertNotEquals(plain, staged, "another context, another id");
        Http.Response viaPrefix = ok(a.post("/contexts/.staging/subjects/users-value/versions", user));
        assertEquals(staged, viaPrefix.json().get("id").asLong(), "the prefix names the same subject");
        String offset = at(viaPrefix);

        assertEquals(40403, b.get("/schemas/ids/" + staged, "X-Quire-Min-Offset", offset).errorCode(),
                "without a subject an id is read in the default context");
        for (String path : List.of("/schemas/ids/" + staged + "?subject=:.staging:",
                "/schemas/ids/" + staged + "?subject=:.staging:users-value",
                "/schemas/ids/" + staged + "?subject=users-value", // unqualified: found in the context that uses it
                "/contexts/.staging/schemas/ids/" + staged)) {
            assertEquals(Http.record("User", NAME), ok(b.get(path, "X-Quire-Min-Offset", offset)).json()
                    .get("schema").asText(), path);
        }
        assertEquals("[\":.staging:users-value\"]", ok(b.get("/contexts/.staging/schemas/ids/" + staged + "/subjects"))
                .body());
        assertEquals("[{\"subject\":\":.staging:users-value\",\"version\":1}]",
                ok(b.get("/schemas/ids/" + staged + "/versions?subject=:.staging:")).body());
        assertEquals("[\"users-value\"]", ok(b.get("/schemas/ids/" + plain + "/subjects")).body());
        assertEquals("{\"type\":\"record\",\"name\":\"User\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}",
                ok(b.get("/contexts/.staging/schemas/ids/" + staged + "/schema")).body());

        String guid = ok(b.get("/schemas/ids/" + plain)).json().get("guid").asText();
        assertEquals(guid, ok(b.get("/contexts/.staging/schemas/ids/" + staged)).json().get("guid").asText(),
                "a GUID names content, the same in every context");
        JsonNode ids = ok(b.get("/schemas/guids/" + guid + "/ids")).json();
        assertEquals(".", ids.get(0).get("context").asText());
        assertEquals(plain, ids.get(0).get("id").asLong());
        assertEquals(".staging", ids.get(1).get("context").asText());
        assertEquals(staged, ids.get(1).get("id").asLong());

        JsonNode latest = ok(b.get("/contexts/.staging/subjects/users-value/versions/latest")).json();
        assertEquals(":.staging:users-value", latest.get("subject").asText());
        assertEquals(staged, latest.get("id").asLong());
        assertTrue(ok(b.get("/contexts")).body().contains("\".staging\""));
        assertEquals("[\":.staging:users-value\"]", ok(b.get("/contexts/.staging/subjects")).body());
        assertTrue(ok(b.get("/subjects?subjectPrefix=:*:users")).body()
                .contains("\":.staging:users-value\""), "the wildcard reaches every context");
        assertTrue(ok(b.get("/subjects?subjectPrefix=:*:users")).body().contains("\"users-value\""));
    }

    @Test
    void settingsFallBackFromSubjectToContextToRegistry() {
        String v1 = Http.schemaBody(Http.record("Item", NAME));
        String breaking = Http.schemaBody(Http.record("Item", AGE));
        ok(a.post("/subjects/:.loose:items/versions", v1));
        assertEquals(409, a.post("/subjects/:.loose:items/versions", breaking).status(), "BACKWARD, the registry's");
        Http.Response set = ok(a.put("/contexts/.loose/config", "{\"compatibility\":\"NONE\"}"));
        assertEquals("NONE", ok(b.get("/config/:.loose:", "X-Quire-Min-Offset", at(set))).json()
                .get("compatibilityLevel").asText(), "the context's own config is the subject ':.loose:'");
        ok(a.post("/subjects/:.loose:items/versions", breaking));
        ok(a.post("/subjects/items/versions", v1));
        assertEquals(409, a.post("/subjects/items/versions", breaking).status(), "the default context keeps BACKWARD");
        ok(a.put("/contexts/.loose/config/pinned", "{\"compatibility\":\"FULL\"}"));
        assertEquals("FULL", ok(a.get("/config/:.loose:pinned")).json().get("compatibilityLevel").asText());
        assertEquals("NONE", ok(a.get("/contexts/.loose/config/other?defaultToGlobal=true")).json()
                .get("compatibilityLevel").asText(), "a subject without its own takes its context's");
    }

    @Test
    void referencesAreReadInTheContextOfTheirSchemaAndCanBeShownQualified() {
        String customer = Http.record("Customer", NAME);
        ok(a.post("/subjects/:.refs:customer/versions", Http.schemaBody(customer)));
        String order = "{\"schema\":" + Http.JSON.valueToTree(Http.record("Order",
                "{\"name\":\"customer\",\"type\":\"Customer\"}")) + ",\"references\":[{\"name\":\"Customer\","
                + "\"subject\":\"customer\",\"version\":1}]}";
        assertEquals(42201, a.post("/subjects/orders/versions", order).errorCode(),
                "the default context has no subject 'customer'");
        Http.Response written = ok(a.post("/contexts/.refs/subjects/orders/versions", order));
        JsonNode asGiven = ok(b.get("/subjects/:.refs:orders/versions/1", "X-Quire-Min-Offset", at(written))).json();
        assertEquals("customer", asGiven.at("/references/0/subject").asText(), "stored as given");
        assertEquals(":.refs:customer", ok(b.get("/subjects/:.refs:orders/versions/1?referenceFormat=qualified")).json()
                .at("/references/0/subject").asText());
        long id = written.json().get("id").asLong();
        assertEquals(":.refs:customer", ok(b.get("/schemas/ids/" + id + "?subject=:.refs:&referenceFormat=qualified"))
                .json().at("/references/0/subject").asText());
        assertEquals("[" + id + "]", ok(b.get("/subjects/:.refs:customer/versions/1/referencedby")).body());
    }

    @Test
    void aContextIsDeletedOnceItsSubjectsAreGoneAndNeverTheDefaultOne() {
        ok(a.post("/subjects/:.temp:t/versions", Http.schemaBody(Http.record("T", NAME))));
        assertEquals(42213, a.delete("/contexts/.temp").errorCode(), "it still has a subject");
        ok(a.delete("/subjects/:.temp:t"));
        assertEquals(42213, a.delete("/contexts/.temp").errorCode(), "a soft-deleted subject counts");
        ok(a.delete("/contexts/.temp/subjects/t?permanent=true"));
        Http.Response deleted = a.delete("/contexts/.temp");
        assertEquals(204, deleted.status(), deleted.body());
        assertTrue(!ok(b.get("/contexts", "X-Quire-Min-Offset", at(deleted))).body().contains("\".temp\""));
        assertEquals(40412, a.delete("/contexts/.temp").errorCode());
        assertEquals(42205, a.delete("/contexts/:.:").errorCode(), "the default context, spelled out");
        assertEquals(400, a.delete("/contexts/.a:b").errorCode(), "a colon inside a context name");
        assertEquals(42208, a.post("/subjects/:.temp:/versions", Http.schemaBody(Http.record("T", NAME))).errorCode(),
                "a context is not a subject");
    }
}
