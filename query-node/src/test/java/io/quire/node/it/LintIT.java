package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lint at registration against a real node: the config set for the registry, a context and a
 * subject and inherited in that order; a refusing profile answers 42201 with every violation and
 * registers nothing; a warning one registers and reports; the compatibility endpoint and
 * {@code POST /lint} say the same; existing versions and IMPORT mode are never judged.
 */
class LintIT {

    static final String BAD = "{\"type\":\"record\",\"name\":\"order_event\",\"fields\":[{\"name\":\"order_id\","
            + "\"type\":\"string\"},{\"name\":\"note\",\"type\":[\"string\",\"null\"],\"default\":\"\"}]}";
    static final String GOOD = "{\"type\":\"record\",\"name\":\"OrderEvent\",\"namespace\":\"acme\",\"fields\":["
            + "{\"name\":\"orderId\",\"type\":\"string\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"],"
            + "\"default\":null}]}";

    static String body(String schema) throws Exception {
        return Http.JSON.writeValueAsString(Map.of("schema", schema));
    }

    @Test
    void lintIsConfiguredLikeCompatibilityAndJudgesNewVersionsOnly() throws Exception {
        try (QuireNode node = Nodes.start(Nodes.config("lint-it", Files.createTempDirectory("quire-lint"), "lint-node"))) {
            Http http = new Http(node.httpPort());
            // registered before any lint config: never judged later
            assertEquals(200, http.post("/subjects/legacy-value/versions", body(BAD)).status());

            assertEquals(200, http.put("/config", "{\"lint\":{\"profile\":\"STANDARD\"}}").status());
            JsonNode global = http.get("/config").json();
            assertEquals("STANDARD", global.at("/lint/profile").asText(), global.toString());
            assertEquals("BACKWARD", global.path("compatibilityLevel").asText(), "the level is untouched");

            Http.Response refused = http.post("/subjects/orders-value/versions", body(BAD));
            assertEquals(422, refused.status(), refused.body());
            assertEquals(42201, refused.json().path("error_code").asInt());
            String message = refused.json().path("message").asText();
            for (String v : List.of("AVRO_NAMESPACE_DEFINED at order_event", "AVRO_NAME_PASCAL_CASE at order_event",
                    "AVRO_FIELD_LOWER_CAMEL_CASE at order_event.order_id", "AVRO_UNION_NULL_FIRST at order_event.note")) {
                assertTrue(message.contains(v), "every violation: " + v + " in " + message);
            }
            assertTrue(message.startsWith("Invalid schema: lint: 4 violations: "), message);
            assertEquals(404, http.get("/subjects/orders-value/versions").status(), "nothing registered");
            assertEquals(200, http.post("/subjects/orders-value/versions", body(GOOD)).status());
            assertEquals(200, http.post("/subjects/legacy-value/versions", body(BAD)).status(),
                    "a schema the subject holds already is answered, not judged");

            // the compatibility endpoint and POST /lint say the same before anything is registered
            JsonNode check = http.post("/compatibility/subjects/orders-value/versions/latest?verbose=true", body(BAD))
                    .json();
            assertFalse(check.path("is_compatible").asBoolean(), check.toString());
            assertTrue(check.path("messages").toString().contains("lint: AVRO_NAME_PASCAL_CASE"), check.toString());
            JsonNode linted = http.post("/lint", body(BAD)).json();
            assertTrue(linted.path("refused").asBoolean(), linted.toString());
            assertEquals(4, linted.path("violations").size(), linted.toString());
            assertEquals("AVRO_NAMESPACE_DEFINED", linted.at("/violations/0/rule").asText());
            JsonNode asked = http.post("/lint", Http.JSON.writeValueAsString(Map.of("schema", BAD, "lint",
                    Map.of("profile", "MINIMAL")))).json();
            assertEquals(1, asked.path("violations").size(), "the profile the request names: " + asked);

            // a context warns, a subject in it turns lint off: registry → context → subject
            assertEquals(200, http.put("/config/:.staging:", "{\"lint\":{\"profile\":\"STANDARD\",\"action\":\"WARN\"}}")
                    .status());
            Http.Response warned = http.post("/subjects/:.staging:orders-value/versions", body(BAD));
            assertEquals(200, warned.status(), warned.body());
            assertEquals(4, warned.json().path("lintWarnings").size(), warned.body());
            JsonNode trail = http.get("/audit?subject=:.staging:orders-value").json();
            assertTrue(trail.get(0).path("message").asText().startsWith("lint: AVRO_NAMESPACE_DEFINED"), trail.toString());
            assertEquals(200, http.put("/config/:.staging:quiet-value", "{\"lint\":{\"profile\":\"NONE\"}}").status());
            Http.Response quiet = http.post("/subjects/:.staging:quiet-value/versions", body(BAD));
            assertEquals(200, quiet.status(), quiet.body());
            assertFalse(quiet.body().contains("lintWarnings"), quiet.body());
            assertEquals(422, http.post("/subjects/other-value/versions", body(BAD)).status(), "the registry's");

            // IMPORT mode is never judged
            assertEquals(200, http.put("/mode/imported-value?force=true", "{\"mode\":\"IMPORT\"}").status());
            Http.Response imported = http.post("/subjects/imported-value/versions", Http.JSON.writeValueAsString(Map.of(
                    "schema", BAD.replace("order_id", "import_id"), "id", 900_000, "version", 1)));
            assertEquals(200, imported.status(), imported.body());

            // a config that would not run is refused, and changes nothing
            Http.Response unknown = http.put("/config/orders-value", "{\"lint\":{\"use\":[\"NO_SUCH_RULE\"]}}");
            assertEquals(422, unknown.status(), unknown.body());
            assertTrue(unknown.body().contains("NO_SUCH_RULE"), unknown.body());
            assertEquals(404, http.get("/config/orders-value").status(), "nothing set for the subject");
        }
    }
}
