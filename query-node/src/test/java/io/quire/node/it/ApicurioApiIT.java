package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Apicurio's v3 API over the Confluent data of one node, request by request: what it answers for
 * the same registry the Confluent API shows, and that every bad request gets Apicurio's problem
 * body, a 4xx, and changes nothing. (Apicurio's own serdes are driven against a node in the
 * interop module.)
 */
class ApicurioApiIT {

    static final String V3 = "/apis/registry/v3";
    static final String NAME = "{\"name\":\"n\",\"type\":\"string\"}";

    static String create(String artifactId, String type, String content, String version, List<Map<String, String>> refs)
            throws Exception {
        Map<String, Object> c = new java.util.LinkedHashMap<>();
        c.put("content", content);
        c.put("contentType", "application/json");
        if (refs != null) {
            c.put("references", refs);
        }
        Map<String, Object> v = new java.util.LinkedHashMap<>();
        v.put("content", c);
        if (version != null) {
            v.put("version", version);
        }
        Map<String, Object> a = new java.util.LinkedHashMap<>();
        a.put("artifactId", artifactId);
        a.put("artifactType", type);
        a.put("firstVersion", v);
        return Http.JSON.writeValueAsString(a);
    }

    static void assertProblem(Http.Response r, int status, String name) {
        assertEquals(status, r.status(), r.body());
        JsonNode p = r.json();
        assertEquals(name, p.get("name").asText(), r.body());
        assertEquals(status, p.get("status").asInt());
        assertTrue(p.get("title").asText().length() > 5, r.body());
        assertTrue(p.get("detail").asText().startsWith(name + ": "), r.body());
    }

    @Test
    void theV3ApiShowsTheConfluentRegistryAndRefusesBadRequestsWithoutChangingIt() throws Exception {
        try (QuireNode node = Nodes.start(Nodes.config("apicurio-api-it", Files.createTempDirectory("quire-v3"), "v3"))) {
            Http h = new Http(node.httpPort());
            String user = record("User", NAME);
            assertEquals(200, h.post("/subjects/users-value/versions", schemaBody(user)).status());
            long id = h.get("/subjects/users-value/versions/1").json().get("id").asLong();

            JsonNode latest = h.get(V3 + "/groups/default/artifacts/users-value/versions/branch=latest").json();
            assertEquals("1", latest.get("version").asText());
            assertEquals(id, latest.get("contentId").asLong());
            assertEquals("AVRO", latest.get("artifactType").asText());
            assertEquals("ENABLED", latest.get("state").asText());
            assertEquals(latest, h.get(V3 + "/groups/default/artifacts/users-value/versions/1").json());
            assertEquals(h.get("/schemas/ids/" + id + "/schema").body(), h.get(V3 + "/ids/contentIds/" + id).body());
            long globalId = latest.get("globalId").asLong();
            assertEquals(h.get(V3 + "/ids/contentIds/" + id).body(), h.get(V3 + "/ids/globalIds/" + globalId).body());

            // FIND_OR_CREATE_VERSION with the same content is the same version; with new content, the next.
            JsonNode found = h.post(V3 + "/groups/default/artifacts?ifExists=FIND_OR_CREATE_VERSION",
                    create("users-value", "AVRO", user, null, null)).json();
            assertEquals(globalId, found.get("version").get("globalId").asLong());
            String v2 = record("User", NAME, "{\"name\":\"age\",\"type\":\"int\",\"default\":0}");
            JsonNode created = h.post(V3 + "/groups/default/artifacts?ifExists=FIND_OR_CREATE_VERSION",
                    create("users-value", "AVRO", v2, "2", null)).json();
            assertEquals("2", created.get("version").get("version").asText());
            assertEquals(globalId + 1, created.get("version").get("globalId").asLong());
            assertEquals("users-value", created.get("artifact").get("artifactId").asText());

            // Search finds the versions by content, newest global id first.
            h.post("/subjects/copy-value/versions", schemaBody(user));
            JsonNode search = h.post(V3 + "/search/versions?canonical=true&artifactType=AVRO&order=desc", user).json();
            assertEquals(2, search.get("count").asInt(), search.toString());
            assertEquals("copy-value", search.get("versions").get(0).get("artifactId").asText());
            assertEquals(1, h.post(V3 + "/search/versions?groupId=default&artifactId=users-value", user).json()
                    .get("count").asInt());
            assertEquals(0, h.post(V3 + "/search/versions?groupId=team-a", user).json().get("count").asInt());

            // A soft-deleted version is DISABLED and no longer the latest.
            assertEquals(200, h.delete("/subjects/users-value/versions/2").status());
            assertEquals("DISABLED", h.get(V3 + "/groups/default/artifacts/users-value/versions/2").json()
                    .get("state").asText());
            assertEquals("1", h.get(V3 + "/groups/default/artifacts/users-value/versions/branch=latest").json()
                    .get("version").asText());

            String digest = h.get("/admin/view-digest").body();
            String subjects = h.get("/subjects?deleted=true").body();
            String art = V3 + "/groups/default/artifacts";
            assertProblem(h.post(art, create("users-value", "AVRO", v2, null, null)), 409, "ArtifactAlreadyExistsException");
            assertProblem(h.post(art + "?ifExists=SOMETIMES", create("x-value", "AVRO", user, null, null)), 400,
                    "BadRequestException");
            assertProblem(h.post(art, "{not json"), 400, "BadRequestException");
            assertProblem(h.post(art, "{\"artifactId\":\"x-value\"}"), 400, "BadRequestException");
            assertProblem(h.post(art, create("", "AVRO", user, null, null)), 400, "BadRequestException");
            assertProblem(h.post(art, create("x-value", "OPENAPI", "{}", null, null)), 400, "BadRequestException");
            assertProblem(h.post(art, create("x-value", "AVRO", "{\"type\":\"recrd\"}", null, null)), 400,
                    "RuleViolationException");
            assertProblem(h.post(art + "?ifExists=FIND_OR_CREATE_VERSION", create("users-value", "AVRO",
                    record("User", "{\"name\":\"must\",\"type\":\"int\"}"), null, null)), 400, "RuleViolationException");
            assertProblem(h.post(art, create("x-value", "AVRO", user, "1.0.0", null)), 400, "BadRequestException");
            assertProblem(h.post(art, create("x-value", "AVRO", user, null,
                    List.of(Map.of("name", "r", "artifactId", "users-value", "version", "latest")))), 400,
                    "BadRequestException");
            assertProblem(h.post(V3 + "/groups/team-a/artifacts", create("x-value", "AVRO", user, null, null)), 404,
                    "ArtifactNotFoundException");
            assertProblem(h.post(V3 + "/search/versions", ""), 400, "BadRequestException");
            assertProblem(h.post(V3 + "/search/versions?limit=-1", user), 400, "BadRequestException");
            assertProblem(h.get(V3 + "/ids/contentIds/abc"), 400, "BadRequestException");
            assertProblem(h.get(V3 + "/ids/contentIds/99999"), 404, "ContentNotFoundException");
            assertProblem(h.get(V3 + "/ids/globalIds/99999"), 404, "VersionNotFoundException");
            assertProblem(h.get(V3 + "/ids/contentHashes/xyz"), 400, "BadRequestException");
            assertProblem(h.get(V3 + "/ids/contentHashes/" + "0".repeat(64)), 404, "ContentNotFoundException");
            assertProblem(h.get(V3 + "/ids/contentIds/" + id + "?references=REWRITE"), 400, "BadRequestException");
            assertProblem(h.get(art + "/nobody-value/versions/1"), 404, "ArtifactNotFoundException");
            assertProblem(h.get(art + "/users-value/versions/7"), 404, "VersionNotFoundException");
            assertProblem(h.get(art + "/users-value/versions/one"), 404, "VersionNotFoundException");
            assertProblem(h.get(V3 + "/no/such/thing"), 404, "NotFoundException");
            assertEquals(subjects, h.get("/subjects?deleted=true").body());
            String after = h.get("/admin/view-digest").body();
            assertEquals(digest, after, "no refused request changed the view");
        }
    }
}
