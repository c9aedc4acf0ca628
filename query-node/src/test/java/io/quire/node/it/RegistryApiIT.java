package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Confluent API of one node over real HTTP, on a real broker: round trips, response shapes
 * and error codes. The write rules themselves (levels, deletes, modes, IMPORT) are unit-tested on
 * the services in {@code RegistryRulesTest}.
 */
class RegistryApiIT {

    static QuireNode node;
    static Http http;

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";
    static final String AGE_DEFAULT = "{\"name\":\"age\",\"type\":\"int\",\"default\":0}";
    static final String AGE = "{\"name\":\"age\",\"type\":\"int\"}";

    @BeforeAll
    static void start() throws Exception {
        node = Nodes.start(Nodes.config("api-it", Files.createTempDirectory("quire-api-it"), "api-node",
                "--read-wait-timeout-ms", "500"));
        http = new Http(node.httpPort());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static long register(String subject, String avro) {
        Http.Response r = http.post("/subjects/" + subject + "/versions", schemaBody(avro));
        assertEquals(200, r.status(), r.body());
        return r.json().get("id").asLong();
    }

    static long position() {
        return http.get("/admin/position").json().get("offset").asLong();
    }

    @Test
    void rootAndTypes() {
        assertEquals("{}", http.get("/").body());
        assertEquals("[\"JSON\",\"PROTOBUF\",\"AVRO\"]", http.get("/schemas/types").body());
    }

    @Test
    void registerIsIdempotentAndIdsIdentifyContentAcrossSubjects() {
        long id = register("users-value", record("User", NAME));
        assertEquals(id, register("users-value", record("User", NAME)), "same schema, same id");
        assertEquals(id, register("users-copy", record("User", NAME)), "same content in another subject");
        assertEquals("[1]", http.get("/subjects/users-value/versions").body(), "no new version for a re-register");
        long v2 = register("users-value", record("User", NAME, AGE_DEFAULT));
        assertNotEquals(id, v2);

        JsonNode latest = http.get("/subjects/users-value/versions/latest").json();
        assertEquals(2, latest.get("version").asInt());
        assertEquals(v2, latest.get("id").asLong());
        assertFalse(latest.has("schemaType"), "AVRO leaves schemaType out");
        assertEquals(latest, http.get("/subjects/users-value/versions/-1").json());
        assertEquals(record("User", NAME), http.get("/subjects/users-value/versions/1/schema").body());
        assertEquals(record("User", NAME), http.get("/schemas/ids/" + id).json().get("schema").asText());
        assertEquals(record("User", NAME), http.get("/schemas/ids/" + id + "/schema").body());
        assertEquals(http.get("/schemas/ids/" + id).body(), http.get("/schemas/ids/" + id + "?subject=users-value").body());
        assertEquals("[\"users-copy\",\"users-value\"]", http.get("/schemas/ids/" + id + "/subjects").body());
        assertEquals("[{\"subject\":\"users-copy\",\"version\":1},{\"subject\":\"users-value\",\"version\":1}]",
                http.get("/schemas/ids/" + id + "/versions").body());

        JsonNode found = http.post("/subjects/users-value", schemaBody(record("User", NAME))).json();
        assertEquals(1, found.get("version").asInt());
        assertEquals(id, found.get("id").asLong());
        assertEquals("users-value", found.get("subject").asText());
    }

    @Test
    void incompatibleSchemasAreRefusedWith409AndChangeNothing() {
        register("orders-value", record("Order", NAME));
        long before = position();
        Http.Response r = http.post("/subjects/orders-value/versions", schemaBody(record("Order", NAME, AGE)));
        assertEquals(409, r.status());
        assertEquals(409, r.errorCode());
        assertTrue(r.json().get("message").asText().contains("READER_FIELD_MISSING_DEFAULT_VALUE"), r.body());
        assertEquals(before, position(), "the journal took nothing");

        JsonNode verdict = http.post("/compatibility/subjects/orders-value/versions/latest?verbose=true",
                schemaBody(record("Order", NAME, AGE))).json();
        assertFalse(verdict.get("is_compatible").asBoolean());
        assertTrue(verdict.get("messages").size() > 0);
        assertTrue(http.post("/compatibility/subjects/no-such-subject/versions/latest",
                schemaBody(record("Order", NAME))).json().get("is_compatible").asBoolean());
        assertEquals(40401, http.post("/compatibility/subjects/no-such-subject/versions/1",
                schemaBody(record("Order", NAME))).errorCode());
        assertEquals(40402, http.post("/compatibility/subjects/orders-value/versions/9",
                schemaBody(record("Order", NAME))).errorCode());
        JsonNode ok = http.post("/compatibility/subjects/orders-value/versions",
                schemaBody(record("Order", NAME, AGE_DEFAULT))).json();
        assertTrue(ok.get("is_compatible").asBoolean());
        assertFalse(ok.has("messages"), "messages only with verbose=true");
    }

    @Test
    void badInputGetsConfluentCodesAndLeavesTheJournalUntouched() {
        register("bad-base", record("Base", NAME));
        long before = position();
        assertEquals(42201, http.post("/subjects/bad/versions", schemaBody("{\"type\":\"record\"}")).errorCode());
        assertEquals(42201, http.post("/subjects/bad/versions", schemaBody("not json at all")).errorCode());
        assertEquals(42201, http.post("/subjects/bad/versions", "{\"schemaType\":\"AVRO\"}").errorCode());
        assertEquals(42201, http.post("/subjects/bad/versions",
                "{\"schema\":\"\\\"int\\\"\",\"schemaType\":\"XML\"}").errorCode());
        Http.Response malformed = http.post("/subjects/bad/versions", "{\"schema\": ");
        assertEquals(400, malformed.status());
        assertTrue(malformed.json().has("message"));
        assertEquals(40401, http.get("/subjects/nobody/versions").errorCode());
        assertEquals(40401, http.get("/subjects/nobody/versions/1").errorCode());
        assertEquals(40401, http.post("/subjects/nobody", schemaBody(record("Base", NAME))).errorCode());
        assertEquals(40403, http.post("/subjects/bad-base", schemaBody(record("Other", NAME))).errorCode());
        assertEquals(40402, http.get("/subjects/bad-base/versions/7").errorCode());
        assertEquals(42202, http.get("/subjects/bad-base/versions/0").errorCode());
        assertEquals(42202, http.get("/subjects/bad-base/versions/abc").errorCode());
        assertEquals(40403, http.get("/schemas/ids/999999").errorCode());
        assertEquals(42203, http.put("/config", "{\"compatibility\":\"MAYBE\"}").errorCode());
        assertEquals(42208, http.post("/subjects/bad%01name/versions", schemaBody(record("Base", NAME))).errorCode());
        assertEquals(42205, http.post("/subjects/bad/versions",
                "{\"schema\":\"\\\"int\\\"\",\"id\":5,\"version\":1}").errorCode());
        assertEquals(404, http.get("/no/such/route").status());
        assertEquals(before, position(), "no bad request reached the journal");
    }

    @Test
    void referencesResolveAreListedAndProtectWhatTheyName() {
        long customer = register("ref-customer", record("Customer", NAME));
        String order = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"customer\",\"type\":\"Customer\"}]}";
        long before = position();
        Http.Response missing = http.post("/subjects/ref-order/versions", "{\"schema\":" + quote(order)
                + ",\"references\":[{\"name\":\"Customer\",\"subject\":\"ref-nobody\",\"version\":1}]}");
        assertEquals(42201, missing.errorCode(), "a reference to a missing subject");
        assertEquals(42201, http.post("/subjects/ref-order/versions", schemaBody(order)).errorCode(),
                "the named type is unknown without the reference");
        assertEquals(before, position(), "refused before the journal");
        Http.Response ok = http.post("/subjects/ref-order/versions", "{\"schema\":" + quote(order)
                + ",\"references\":[{\"name\":\"Customer\",\"subject\":\"ref-customer\",\"version\":-1}]}");
        assertEquals(200, ok.status(), ok.body());
        long orderId = ok.json().get("id").asLong();
        Http.Response read = http.get("/subjects/ref-order/versions/1");
        assertEquals("ref-customer", read.json().get("references").get(0).get("subject").asText());
        assertEquals(1, read.json().get("references").get(0).get("version").asInt(), "latest is pinned when stored");
        assertEquals(order, read.json().get("schema").asText(), "stored as registered: Customer by name, not inlined");
        assertEquals(order, http.get("/schemas/ids/" + orderId).json().get("schema").asText());
        assertEquals("[" + orderId + "]", http.get("/subjects/ref-customer/versions/1/referencedby").body());
        assertEquals("[]", http.get("/subjects/ref-order/versions/1/referencedby").body());
        Http.Response lookup = http.post("/subjects/ref-order", "{\"schema\":" + quote(order)
                + ",\"references\":[{\"name\":\"Customer\",\"subject\":\"ref-customer\",\"version\":1}]}");
        assertEquals(orderId, lookup.json().get("id").asLong(), "references are part of content identity");

        long beforeDelete = position();
        assertEquals(42206, http.delete("/subjects/ref-customer/versions/1").errorCode(),
                "a live version references it: no soft delete either (Confluent's deleteSchemaVersion)");
        assertEquals(beforeDelete, position(), "refused before the journal");
        assertEquals(200, http.delete("/subjects/ref-order/versions/1").status(), "the referrer goes first");
        assertEquals(200, http.delete("/subjects/ref-customer/versions/1").status(),
                "a soft-deleted referrer allows a soft delete");
        beforeDelete = position();
        Http.Response refused = http.delete("/subjects/ref-customer/versions/1?permanent=true");
        assertEquals(42206, refused.errorCode(), refused.body());
        assertEquals(beforeDelete, position(), "refused before the journal");
        assertEquals(200, http.get("/schemas/ids/" + customer).status(), "the referenced id still resolves");
    }

    @Test
    void schemasListWithPrefixLatestOnlyDeletedAndPaging() {
        register("list-a", record("ListA", NAME));
        register("list-a", record("ListA", NAME, AGE_DEFAULT));
        register("list-b", record("ListB", NAME));
        http.delete("/subjects/list-b");
        Http.Response all = http.get("/schemas?subjectPrefix=list-");
        assertEquals(2, all.json().size(), all.body());
        assertEquals("list-a", all.json().get(0).get("subject").asText());
        assertEquals(2, all.json().get(1).get("version").asInt());
        assertEquals(3, http.get("/schemas?subjectPrefix=list-&deleted=true").json().size());
        Http.Response latest = http.get("/schemas?subjectPrefix=list-&latestOnly=true&deleted=true");
        assertEquals(2, latest.json().size(), latest.body());
        assertEquals(2, latest.json().get(0).get("version").asInt());
        Http.Response page = http.get("/schemas?subjectPrefix=list-&deleted=true&offset=1&limit=1");
        assertEquals(1, page.json().size());
        assertEquals(2, page.json().get(0).get("version").asInt());
        assertTrue(page.json().get(0).has("schema") && page.json().get(0).has("id"));
    }

    static String jsonBody(String schema) {
        return "{\"schemaType\":\"JSON\",\"schema\":" + quote(schema) + "}";
    }

    @Test
    void jsonSchemaRegistersEvolvesIsCheckedAndNormalises() {
        String v1 = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"additionalProperties\":false}";
        Http.Response first = http.post("/subjects/json-value/versions", jsonBody(v1));
        assertEquals(200, first.status(), first.body());
        long id = first.json().get("id").asLong();
        Http.Response read = http.get("/schemas/ids/" + id);
        assertEquals("JSON", read.json().get("schemaType").asText());
        assertEquals(v1, read.json().get("schema").asText(), "compact text, keys in document order");
        assertEquals("JSON", http.get("/subjects/json-value/versions/1").json().get("schemaType").asText());

        String v2 = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}},"
                + "\"additionalProperties\":false}";
        assertEquals(200, http.post("/subjects/json-value/versions", jsonBody(v2)).status(),
                "a property added to a closed content model is backward compatible");
        String narrowed = v2.replace("\"integer\"", "\"string\"");
        Http.Response refused = http.post("/subjects/json-value/versions", jsonBody(narrowed));
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("TYPE_CHANGED"), refused.body());
        assertEquals(42201, http.post("/subjects/json-bad/versions", jsonBody("{\"type\":5}")).errorCode(),
                "a document the meta-schema refuses");
        assertEquals(42201, http.post("/subjects/json-bad/versions", jsonBody("[1,2]")).errorCode());

        String a = "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\",\"maxLength\":3}}}";
        String reordered = "{ \"properties\": {\"x\": {\"maxLength\": 3, \"type\": \"string\"}}, \"type\": \"object\" }";
        long plain = http.post("/subjects/json-norm-a/versions", jsonBody(a)).json().get("id").asLong();
        long other = http.post("/subjects/json-norm-b/versions", jsonBody(reordered)).json().get("id").asLong();
        assertTrue(plain != other, "without normalize, key order is part of the content");
        long n1 = http.post("/subjects/json-norm-c/versions?normalize=true", jsonBody(a)).json().get("id").asLong();
        long n2 = http.post("/subjects/json-norm-c/versions?normalize=true", jsonBody(reordered)).json().get("id")
                .asLong();
        assertEquals(n1, n2, "normalised, both texts are one schema");
        assertEquals("{\"compatibility\":\"BACKWARD\",\"normalize\":true}",
                http.put("/config/json-norm-d", "{\"normalize\":true}").body());
        assertEquals(true, http.get("/config/json-norm-d").json().get("normalize").asBoolean());
        long d1 = http.post("/subjects/json-norm-d/versions", jsonBody(reordered)).json().get("id").asLong();
        assertEquals(n1, d1, "the subject's normalize flag applies without the parameter");
        assertEquals(1, http.post("/subjects/json-norm-d", jsonBody(a)).json().get("version").asInt(),
                "lookup normalises too");
    }

    static String protoBody(String schema, String references) {
        return "{\"schemaType\":\"PROTOBUF\",\"schema\":" + quote(schema)
                + (references == null ? "" : ",\"references\":" + references) + "}";
    }

    @Test
    void protobufRegistersWithImportsAndReferencesAndIsChecked() {
        String customer = "syntax = \"proto3\";\npackage shop;\nmessage Customer {\n  string name = 1;\n}\n";
        Http.Response c = http.post("/subjects/proto-customer/versions", protoBody(customer, null));
        assertEquals(200, c.status(), c.body());
        String order = "syntax = \"proto3\";\npackage shop;\nimport \"customer.proto\";\n"
                + "import \"google/protobuf/timestamp.proto\";\n"
                + "message Order {\n  string id = 1;\n  Customer customer = 2;\n  google.protobuf.Timestamp at = 3;\n}\n";
        assertEquals(42201, http.post("/subjects/proto-order/versions", protoBody(order, null)).errorCode(),
                "an import that is neither well-known nor a reference");
        String ref = "[{\"name\":\"customer.proto\",\"subject\":\"proto-customer\",\"version\":1}]";
        Http.Response o = http.post("/subjects/proto-order/versions", protoBody(order, ref));
        assertEquals(200, o.status(), o.body());
        Http.Response read = http.get("/schemas/ids/" + o.json().get("id").asLong());
        assertEquals("PROTOBUF", read.json().get("schemaType").asText());
        assertTrue(read.json().get("schema").asText().contains("message Order"), read.body());
        assertEquals("customer.proto", read.json().get("references").get(0).get("name").asText());

        String evolved = order.replace("google.protobuf.Timestamp at = 3;", "google.protobuf.Timestamp at = 3;\n  int64 qty = 4;");
        assertEquals(200, http.post("/subjects/proto-order/versions", protoBody(evolved, ref)).status());
        String broken = evolved.replace("int64 qty = 4;", "string qty = 4;");
        Http.Response refused = http.post("/subjects/proto-order/versions", protoBody(broken, ref));
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("FIELD_SCALAR_KIND_CHANGED"), refused.body());
        assertEquals(42201, http.post("/subjects/proto-bad/versions", protoBody("message {", null)).errorCode());
        assertEquals(42201, http.post("/subjects/proto-bad/versions",
                protoBody("syntax = \"proto3\";\nmessage A {\n  string a = 1;\n  int32 b = 1;\n}\n", null)).errorCode(),
                "a field number used twice");
    }

    static String quote(String s) {
        try {
            return Http.JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void writesReturnTheirOffsetAndReadsCanWaitForOne() {
        Http.Response w = http.post("/subjects/ryw-value/versions", schemaBody(record("Ryw", NAME)));
        long offset = w.offset();
        assertEquals(200, http.get("/subjects/ryw-value/versions/1", "X-Quire-Min-Offset", Long.toString(offset))
                .status());
        Http.Response late = http.get("/subjects/ryw-value/versions/1", "X-Quire-Min-Offset",
                Long.toString(offset + 1_000_000));
        assertEquals(50002, late.errorCode(), "a bounded wait, then a timeout");
    }

    @Test
    void pagingAndPrefixOnSubjects() {
        register("page-a", record("Pa", NAME));
        register("page-b", record("Pb", NAME));
        register("page-c", record("Pc", NAME));
        assertEquals("[\"page-a\",\"page-b\",\"page-c\"]", http.get("/subjects?subjectPrefix=page-").body());
        assertEquals("[\"page-b\"]", http.get("/subjects?subjectPrefix=page-&offset=1&limit=1").body());
        assertEquals("[\"page-c\"]", http.get("/subjects?subjectPrefix=page-&offset=2&limit=1").body(),
                "from where the page before ended");
        assertEquals("[\"page-b\",\"page-c\"]", http.get("/subjects?subjectPrefix=page-&after=page-a").body());
        register("page-0", record("P0", NAME));
        assertEquals("[\"page-a\"]", http.get("/subjects?subjectPrefix=page-&offset=1&limit=1").body(),
                "a subject written since: offsets count it");
    }

    @Test
    void healthAndMetrics() {
        assertEquals(200, http.get("/health/live").status());
        assertEquals("UP", http.get("/health/ready").json().get("status").asText());
        register("metrics-value", record("M", NAME));
        String metrics = http.get("/metrics").body();
        assertTrue(metrics.contains("quire_http_requests_seconds_count{method=\"POST\",route=\"/subjects/:subject/versions\",status=\"200\"}"),
                metrics);
        assertTrue(metrics.contains("quire_journal_applied_offset"));
        assertTrue(metrics.contains("quire_journal_commands_total{outcome=\"SchemaRegistered\",type=\"RegisterSchema\"}"));
        for (String phase : new String[] {"decode", "apply", "view_reads", "store_writes", "listeners"}) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                    "quire_journal_apply_phase_seconds_total\\{phase=\"" + phase + "\"\\} (\\S+)").matcher(metrics);
            assertTrue(m.find(), phase + " in " + metrics);
            assertTrue(Double.parseDouble(m.group(1)) > 0, phase + ": the applier spent time in it");
        }
        double cache = gauge(metrics, "quire_view_memory_bytes\\{kind=\"block-cache\"\\}");
        double memtables = gauge(metrics, "quire_view_memory_bytes\\{kind=\"memtables\"\\}");
        assertTrue(memtables > 0 && cache >= memtables, "memtables are charged to the block cache: " + metrics);
        assertTrue(gauge(metrics, "quire_process_resident_bytes") > cache, metrics);
        assertTrue(metrics.contains("jvm_memory_committed_bytes{area=\"heap\""), metrics);
        assertTrue(gauge(metrics, "quire_view_compactions") >= 0, metrics);
    }

    private static double gauge(String metrics, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(metrics);
        assertTrue(m.find(), name + " in " + metrics);
        return Double.parseDouble(m.group(1));
    }
}
