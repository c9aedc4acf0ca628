package io.quire.node.it;

import static io.quire.node.it.Http.basic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import io.quire.node.security.UsersFile;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Search against a real node: Avro, JSON Schema and Protobuf registered through the API, found by
 * term, prefix and wildcard in any case, filtered by kind, tag, type, subject, latest; the
 * {@code ?tags=} lists; the impact of a shared record through references; a reader scoped to a
 * subject prefix sees only its subjects; bad queries answer 422.
 */
class SearchIT {

    static final String ADMIN = basic("admin", "adminpw");
    static final String ORDERS_READER = basic("orders", "orderspw");

    static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"com.acme\",\"doc\":\"A postal address\","
            + "\"fields\":[{\"name\":\"street\",\"type\":\"string\"}]}";
    static final String ORDER_V1 = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"string\"},"
            + "{\"name\":\"customer_id\",\"type\":\"string\",\"confluent:tags\":[\"PII\"]},"
            + "{\"name\":\"ship_to\",\"type\":\"com.acme.Address\"}]}";
    static final String ORDER_V2 = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ship_to\",\"type\":\"com.acme.Address\"}]}";
    static final String CUSTOMER_JSON = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"title\":\"Customer\","
            + "\"type\":\"object\",\"properties\":{\"customerId\":{\"type\":\"string\",\"description\":\"The customer's "
            + "identifier\",\"confluent:tags\":[\"PII\"]},\"email\":{\"type\":\"string\"}}}";
    static final String PAYMENT_PROTO = "syntax = \"proto3\";\npackage acme.pay.v1;\nimport \"confluent/meta.proto\";\n"
            + "message Payment {\n  string customer_id = 1 [(confluent.field_meta) = { tags: [\"PII\"] }];\n"
            + "  int64 cents = 2;\n}\n";
    static final String AUDIT = "{\"type\":\"record\",\"name\":\"Audit\",\"namespace\":\"com.acme\",\"fields\":["
            + "{\"name\":\"note\",\"type\":\"string\"}]}";

    static QuireNode node;
    static Http http;

    @BeforeAll
    static void registerOneOfEachLanguage() throws Exception {
        Path dir = Files.createTempDirectory("quire-search-it");
        Path users = dir.resolve("users");
        Files.writeString(users, String.join("\n",
                "admin:" + UsersFile.hash("adminpw".toCharArray(), 4) + ":admin",
                "orders:" + UsersFile.hash("orderspw".toCharArray(), 4) + ":reader:orders-"));
        node = Nodes.start(Nodes.config("search-it", dir.resolve("data"), "search-node",
                "--auth-users-file", users.toString()));
        http = new Http(node.httpPort());
        register("com.acme.Address", Map.of("schema", ADDRESS));
        register("orders-value", Map.of("schema", ORDER_V1, "references",
                List.of(Map.of("name", "com.acme.Address", "subject", "com.acme.Address", "version", 1))));
        register("customers-value", Map.of("schemaType", "JSON", "schema", CUSTOMER_JSON));
        register("payments-value", Map.of("schemaType", "PROTOBUF", "schema", PAYMENT_PROTO));
        register("audit-value", Map.of("schema", AUDIT, "metadata", Map.of("tags", Map.of("com.acme.Audit.note",
                List.of("SENSITIVE")), "properties", Map.of("owner", "team-a"))));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static void register(String subject, Map<String, Object> body) throws Exception {
        Http.Response r = http.as(ADMIN).post("/subjects/" + subject + "/versions", Http.JSON.writeValueAsString(body));
        assertEquals(200, r.status(), subject + ": " + r.body());
    }

    static JsonNode get(String path, String auth) {
        Http.Response r = http.as(auth).get(path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return r.json();
    }

    static List<String> hits(String query, String auth) {
        List<String> out = new ArrayList<>();
        for (JsonNode h : get("/search?" + query, auth).path("hits")) {
            List<String> paths = new ArrayList<>();
            h.path("paths").forEach(p -> paths.add(p.asText()));
            out.add(h.path("subject").asText() + "/" + h.path("version").asInt() + " " + h.path("kind").asText() + " "
                    + h.path("term").asText() + " @" + String.join(",", paths));
        }
        return out;
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void termsPrefixesAndWildcardsInAnyCaseAcrossTheThreeLanguages() {
        assertEquals(List.of("orders-value/1 field customer_id @com.acme.Order.customer_id",
                "payments-value/1 field customer_id @acme.pay.v1.Payment.customer_id",
                "customers-value/1 field customerId @Customer.customerId"),
                hits("q=" + q("CUSTOMER*") + "&kind=field", ADMIN), "by term (customer_id before customerid), then id");
        assertEquals(List.of("payments-value/1 field customer_id @acme.pay.v1.Payment.customer_id"),
                hits("q=" + q("*_id") + "&schemaType=protobuf", ADMIN));
        assertEquals(List.of("com.acme.Address/1 doc postal @com.acme.Address"), hits("q=postal&kind=doc", ADMIN));
        assertEquals(List.of("audit-value/1 property owner=team-a @owner"), hits("q=" + q("owner=team-a"), ADMIN));
        assertEquals(List.of("orders-value/1 subject orders @orders-value"), hits("q=orders&kind=subject", ADMIN));
        assertEquals(List.of("orders-value/1 field customer_id @com.acme.Order.customer_id",
                "payments-value/1 field customer_id @acme.pay.v1.Payment.customer_id",
                "customers-value/1 field customerId @Customer.customerId", "orders-value/1 field id @com.acme.Order.id"),
                hits("q=" + q("*id") + "&kind=field", ADMIN), "a leading wildcard: the terms that end so, in term order");
        assertEquals(List.of("com.acme.Address/1 record Address @com.acme.Address"),
                hits("q=address&kind=record&subjectPrefix=com.", ADMIN));
    }

    @Test
    void tagsFromSchemasAndContractsAndTheTagsFiltersOfTheLists() {
        assertEquals(List.of("orders-value/1 field customer_id @com.acme.Order.customer_id",
                "payments-value/1 field customer_id @acme.pay.v1.Payment.customer_id"),
                hits("q=customer_id&tag=pii", ADMIN));
        JsonNode subjects = get("/subjects?tags=PII", ADMIN);
        assertTrue(subjects.toString().contains("customers-value") && subjects.toString().contains("payments-value"),
                subjects.toString());
        JsonNode schemas = get("/schemas?tags=SENSITIVE", ADMIN);
        assertEquals(1, schemas.size(), schemas.toString());
        assertEquals("audit-value", schemas.get(0).path("subject").asText());
        assertEquals(AUDIT.replace(" ", ""), schemas.get(0).path("schema").asText().replace(" ", ""));
        assertEquals(List.of("audit-value"), Http.JSON.convertValue(get("/subjects?tags=GDPR,SENSITIVE", ADMIN),
                List.class), "a list of tags: any of them");
    }

    @Test
    void aNewVersionMovesTheLatestAndTheImpactFollowsReferences() throws Exception {
        register("shipments-value", Map.of("schema", "{\"type\":\"record\",\"name\":\"Shipment\",\"namespace\":"
                + "\"com.acme\",\"fields\":[{\"name\":\"order\",\"type\":\"com.acme.Order\"}]}", "references",
                List.of(Map.of("name", "com.acme.Order", "subject", "orders-value", "version", 1))));
        JsonNode impact = get("/search/impact?record=com.acme.Address", ADMIN);
        List<String> uses = new ArrayList<>();
        for (JsonNode u : impact.path("uses")) {
            uses.add(u.path("subject").asText() + "/" + u.path("version").asInt() + " via " + u.path("via"));
        }
        assertEquals(List.of("com.acme.Address/1 via []", "orders-value/1 via [\"com.acme.Address/1\"]",
                "shipments-value/1 via [\"com.acme.Address/1\",\"orders-value/1\"]"), uses);
        List<String> scoped = new ArrayList<>();
        for (JsonNode u : get("/search/impact?record=com.acme.Address", ORDERS_READER).path("uses")) {
            scoped.add(u.path("subject").asText() + "/" + u.path("version").asInt() + " via " + u.path("via"));
        }
        assertEquals(List.of("orders-value/1 via [\"com.acme.Address/1\"]"), scoped,
                "a reader scoped to orders- sees its subjects only");

        register("orders-value", Map.of("schema", ORDER_V2, "references",
                List.of(Map.of("name", "com.acme.Address", "subject", "com.acme.Address", "version", 1))));
        assertFalse(hits("q=customer_id&latestOnly=true", ADMIN).stream().anyMatch(h -> h.startsWith("orders-value")),
                "orders-value's latest version has no customer_id");
        assertTrue(hits("q=customer_id", ADMIN).stream().anyMatch(h -> h.startsWith("orders-value/1")),
                "its first version still has");
        assertFalse(get("/subjects?tags=PII", ADMIN).toString().contains("orders-value"),
                "the latest version of orders-value tags nothing PII");
        assertTrue(get("/schemas?tags=PII", ADMIN).toString().contains("orders-value"), "every version, by default");
    }

    @Test
    void aScopedReaderSeesItsSubjectsOnlyAndPagesAreHonest() {
        List<String> scoped = hits("q=" + q("*"), ORDERS_READER);
        assertFalse(scoped.isEmpty(), "the reader finds its own subjects");
        assertTrue(scoped.stream().allMatch(h -> h.startsWith("orders-")), scoped.toString());
        assertEquals(List.of(), Http.JSON.convertValue(get("/subjects?tags=SENSITIVE", ORDERS_READER), List.class));
        JsonNode first = get("/search?q=" + q("*") + "&limit=2", ADMIN);
        assertEquals(2, first.path("hits").size());
        assertTrue(first.path("more").asBoolean());
        JsonNode second = get("/search?q=" + q("*") + "&limit=2&offset=2", ADMIN);
        assertFalse(first.path("hits").get(0).equals(second.path("hits").get(0)));
    }

    @Test
    void badQueriesAnswer422AndChangeNothing() {
        for (String bad : List.of("/search", "/search?q=x&kind=colour", "/search?q=x&schemaType=XML",
                "/search/impact", "/search/impact?record=a&field=b")) {
            Http.Response r = http.as(ADMIN).get(bad);
            assertEquals(422, r.status(), bad + ": " + r.body());
            assertEquals(422, r.json().path("error_code").asInt(), r.body());
        }
        assertEquals(401, http.get("/search?q=x").status(), "search reads the registry: a caller must sign in");
    }
}
