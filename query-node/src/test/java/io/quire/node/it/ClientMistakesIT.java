package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client's mistakes and unusual requests on one real node: each gets a 4xx with a Confluent
 * error body, no Java internals, and changes nothing.
 */
class ClientMistakesIT {

    static QuireNode node;
    static Http http;

    static final String JSON_SCHEMA = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}";
    static final String PROTO = "syntax = \"proto3\";\nmessage M {\n  string a = 1;\n}\n";

    @BeforeAll
    static void start() throws Exception {
        node = Nodes.start(Nodes.config("mistakes-it", Files.createTempDirectory("quire-mistakes-it"), "mistakes-node"));
        http = new Http(node.httpPort());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static String typed(String type, String schema) throws Exception {
        return Http.JSON.writeValueAsString(Map.of("schemaType", type, "schema", schema));
    }

    static long position() {
        return http.get("/admin/position").json().get("offset").asLong();
    }

    static void noInternals(Http.Response r) {
        assertFalse(r.body().matches("(?s).*(Exception|\\tat |java\\.|io\\.quire|`).*"), r.body());
    }

    /** The rows of ConfluentParityIT whose answers Confluent's code fixes, on Quire alone (no Docker needed). */
    @Test
    void pinnedParityRowsAnswerAsConfluentsCodeDoes() {
        for (ConfluentParityIT.Pinned p : ConfluentParityIT.PINNED) {
            Http.Response r = http.send(p.step().method(), p.step().path(), p.step().body());
            String what = p.step().method() + " " + p.step().path() + " (" + p.where() + "): " + r.body();
            assertEquals(p.status(), r.status(), what);
            if (p.errorCode() > 0) {
                assertEquals(p.errorCode(), r.errorCode(), what);
                noInternals(r);
            }
        }
        assertEquals(1, http.get("/subjects/pin-base/versions").json().size(), "the refused deletes changed nothing");
    }

    @Test
    void anotherSchemaTypeInASubjectIsIncompatibleUnlessTheLevelIsNone() throws Exception {
        assertEquals(200, http.post("/subjects/typed/versions", schemaBody(record("T", "{\"name\":\"a\",\"type\":\"string\"}"))).status());
        for (String[] other : new String[][] {{"JSON", JSON_SCHEMA}, {"PROTOBUF", PROTO}}) {
            Http.Response r = http.post("/subjects/typed/versions", typed(other[0], other[1]));
            assertEquals(409, r.status(), r.body());
            assertEquals(409, r.errorCode());
            assertTrue(r.body().contains("Incompatible because of different schema type"), r.body());
            noInternals(r);
            Http.Response check = http.post("/compatibility/subjects/typed/versions/latest?verbose=true",
                    typed(other[0], other[1]));
            assertEquals(200, check.status(), check.body());
            assertFalse(check.json().get("is_compatible").asBoolean());
            assertTrue(check.body().contains("different schema type"), check.body());
            Http.Response all = http.post("/compatibility/subjects/typed/versions", typed(other[0], other[1]));
            assertEquals(200, all.status(), all.body());
            assertFalse(all.json().get("is_compatible").asBoolean());
        }
        assertEquals("[1]", http.get("/subjects/typed/versions").body());
        assertEquals(200, http.put("/config/typed", "{\"compatibility\":\"NONE\"}").status());
        assertEquals(200, http.post("/subjects/typed/versions", typed("JSON", JSON_SCHEMA)).status());
        assertEquals(200, http.post("/subjects/typed/versions", typed("PROTOBUF", PROTO)).status());
        assertEquals("[1,2,3]", http.get("/subjects/typed/versions").body());
        assertEquals("JSON", http.get("/subjects/typed/versions/2").json().get("schemaType").asText());
    }

    @Test
    void aPermanentlyDeletedSubjectTakesNoPartInLaterChecks() throws Exception {
        assertEquals(200, http.post("/subjects/gone/versions", schemaBody(record("G", "{\"name\":\"a\",\"type\":\"string\"}"))).status());
        assertEquals(200, http.delete("/subjects/gone").status());
        assertEquals(200, http.delete("/subjects/gone?permanent=true").status());
        Http.Response r = http.post("/subjects/gone/versions", typed("JSON", JSON_SCHEMA));
        assertEquals(200, r.status(), r.body());
        assertEquals("[1]", http.get("/subjects/gone/versions").body());
        Http.Response incompatible = http.post("/subjects/gone/versions", schemaBody(record("G2", "{\"name\":\"b\",\"type\":\"int\"}")));
        assertEquals(409, incompatible.status(), "checked against the new JSON version only: " + incompatible.body());
    }

    @Test
    void enumValuesAndBodiesAreReadStrictly() {
        long before = position();
        String config = http.get("/config").body();
        String mode = http.get("/mode").body();
        String[][] cases = {
                {"/config", "{\"compatibility\":\"NONE\\u0000\"}", "42203"},
                {"/config", "{\"compatibility\":\" NONE\"}", "42203"},
                {"/config", "{\"compatibility\":\"NONE \"}", "42203"},
                {"/config", "{\"compatibilityLevel\":\"FULL\\t\"}", "42203"},
                {"/mode", "{\"mode\":\"READONLY \"}", "42204"},
                {"/mode", "{\"mode\":\"\\u0000READONLY\"}", "42204"},
                {"/config", "{\"compatibility\":\"NONE\",\"compatibility\":\"FULL\"}", "400"},
                {"/config", "{\"compatibility\":\"NONE\"} {\"compatibility\":\"FULL\"}", "400"},
                {"/mode", "{\"mode\":\"READONLY\"}[]", "400"},
                {"/config", "[\"NONE\"]", "400"},
        };
        for (String[] c : cases) {
            Http.Response r = http.put(c[0], c[1]);
            assertEquals(Integer.parseInt(c[2]), r.errorCode(), c[1] + " -> " + r.body());
            assertTrue(r.status() >= 400 && r.status() < 500, r.body());
            noInternals(r);
        }
        Http.Response dup = http.post("/subjects/strict/versions",
                "{\"schema\":\"\\\"string\\\"\",\"schema\":\"\\\"int\\\"\"}");
        assertEquals(400, dup.errorCode(), dup.body());
        Http.Response wrongType = http.post("/subjects/strict/versions", "{\"schema\":\"\\\"string\\\"\",\"id\":\"abc\"}");
        assertEquals(400, wrongType.errorCode(), wrongType.body());
        assertTrue(wrongType.body().contains("'id'"), wrongType.body());
        noInternals(wrongType);
        assertEquals(before, position(), "nothing reached the journal");
        assertEquals(config, http.get("/config").body());
        assertEquals(mode, http.get("/mode").body());
    }

    @Test
    void malformedRequestsGetAJsonErrorBody() throws Exception {
        for (String path : new String[] {"/subjects/%zz/versions", "/subjects?subjectPrefix=%zz", "/subjects/a%2",
                "/schemas/ids/1?subject=%C0%AF", "/subjects/%FF%FE/versions"}) {
            // java.net.URI refuses these paths, so they go over a plain socket.
            String answer = rawExchange("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals("400", answer.substring(9, 12), path + " -> " + answer);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertEquals(400, Http.JSON.readTree(body).path("error_code").asInt(), path + " -> " + answer);
            assertFalse(body.contains("Exception"), body);
        }
        Http.Response unknownMethod = http.send("FROB", "/subjects", null);
        assertTrue(unknownMethod.status() >= 400 && unknownMethod.status() < 500, unknownMethod.body());
        assertTrue(unknownMethod.errorCode() > 0, unknownMethod.body());
        for (String raw : new String[] {"GARBAGE\r\n\r\n", "GET /subjects\r\n\r\n",
                "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n"}) {
            String answer = rawExchange(raw);
            int status = Integer.parseInt(answer.substring(9, 12));
            assertTrue(status >= 400 && status < 500, answer);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertTrue(Http.JSON.readTree(body).path("error_code").asInt() == status, answer);
        }
    }

    static String rawExchange(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", node.httpPort())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
