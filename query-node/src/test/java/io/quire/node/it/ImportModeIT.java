package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * IMPORT mode end to end over HTTP on a real broker: ids and versions kept as given, the mode
 * switches, and ids handed out afterwards never colliding with imported ones, also inside a block
 * the node had already leased. The refusals one by one are unit-tested in {@code RegistryRulesTest}.
 */
class ImportModeIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    static String importBody(String avro, long id, Integer version) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("schema", avro);
        body.put("id", id);
        if (version != null) {
            body.put("version", version);
        }
        try {
            return Http.JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void importKeepsIdsAndVersionsAndLaterIdsNeverCollide() throws Exception {
        try (QuireNode node = Nodes.start(Nodes.config("import-it", Files.createTempDirectory("quire-import"),
                "import-node"))) {
            Http http = new Http(node.httpPort());
            Http.Response first = http.post("/subjects/existing/versions", schemaBody(record("Existing", NAME)));
            assertEquals(1, first.json().get("id").asLong(), "the node's first block starts at 1");

            assertEquals(42205, http.post("/subjects/imp/versions", importBody(record("A", NAME), 5, 1)).errorCode(),
                    "an id outside import mode");
            assertEquals(42205, http.put("/mode", "{\"mode\":\"IMPORT\"}").errorCode(),
                    "IMPORT on a registry with subjects needs force");
            assertEquals("{\"mode\":\"IMPORT\"}", http.put("/mode/imp", "{\"mode\":\"IMPORT\"}").body(),
                    "an empty subject may switch");
            assertEquals(42205, http.post("/subjects/imp/versions", schemaBody(record("A", NAME))).errorCode(),
                    "import mode needs the id");

            // Versions in any order, with gaps; ids inside the block [1, 1001) this node holds.
            assertEquals(5, http.post("/subjects/imp/versions", importBody(record("A", NAME, "{\"name\":\"c\","
                    + "\"type\":\"int\"}"), 5, 3)).json().get("id").asLong());
            assertEquals(3, http.post("/subjects/imp/versions", importBody(record("A", NAME), 3, 1)).json().get("id")
                    .asLong());
            assertEquals(4, http.post("/subjects/imp/versions", importBody(record("B", NAME), 4, 0)).json()
                    .get("id").asLong(), "version 0: the next one");
            Http.Response v3 = http.get("/subjects/imp/versions/3");
            assertEquals(5, v3.json().get("id").asLong());
            assertEquals("[1,3,4]", http.get("/subjects/imp/versions").body());
            assertEquals(4, http.get("/subjects/imp/versions/latest").json().get("version").asInt());
            assertTrue(http.get("/schemas/ids/3").json().get("schema").asText().contains("\"A\""));

            long before = position(http);
            assertEquals(42207, http.post("/subjects/imp/versions", importBody(record("A", NAME), 9, 7)).errorCode(),
                    "known content under another id (the other refusals: RegistryRulesTest)");
            assertEquals(before, position(http), "refused at the edge: nothing journaled");
            assertEquals(200, http.put("/mode?force=true", "{\"mode\":\"IMPORT\"}").status());
            assertEquals(70000, http.post("/subjects/far/versions", importBody(record("Far", NAME), 70000, 2)).json()
                    .get("id").asLong());
            assertEquals("IMPORT", http.get("/mode").json().get("mode").asText());

            assertEquals("IMPORT", http.delete("/mode/imp").json().get("mode").asText());
            assertEquals(200, http.put("/mode", "{\"mode\":\"READWRITE\"}").status());
            Set<Long> ids = new HashSet<>(Set.of(1L, 3L, 4L, 5L, 70000L));
            for (int i = 0; i < 20; i++) {
                Http.Response r = http.post("/subjects/after-" + i + "/versions", schemaBody(record("After" + i, NAME)));
                assertEquals(200, r.status(), r.body());
                long id = r.json().get("id").asLong();
                assertTrue(ids.add(id), "id " + id + " handed out twice");
            }
            assertTrue(http.get("/schemas/ids/3").json().get("schema").asText().contains("\"A\""), "an imported id keeps its schema");
        }
    }

    static long position(Http http) {
        return http.get("/admin/position").json().get("offset").asLong();
    }
}
