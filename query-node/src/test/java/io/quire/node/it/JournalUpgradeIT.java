package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.node.QuireNode;
import io.quire.node.ops.JournalCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rolling upgrade reads the journal the previous release wrote. {@code golden/journal-v0.1.0}
 * holds a journal written by v0.1.0 (every kind of command: the three schema types, references,
 * configs, modes, soft and permanent deletes, a context, rules and metadata, an import, a KEK and
 * a DEK, associations, refusals) and that release's answers to 33 reads, made by
 * {@code bench/golden-journal.sh}. Today's node applies that journal and must reach the same
 * position digest (the same outcome for every record), the same view and the same answers
 * (fields added since are allowed; none may change or go).
 */
class JournalUpgradeIT {

    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "journal-v0.1.0");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void todaysNodeAppliesTheJournalOfTheLastReleaseToTheSameViewAndAnswers() throws Exception {
        String topic = "journal-upgrade-v0-1-0";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, JournalCommand.run(new String[]{"import", "--file", GOLDEN.resolve("journal.ndjson").toString(),
                "--bootstrap-servers", SharedKafka.bootstrapServers(), "--journal-topic", topic,
                "--journal-replication", "1", "--journal-min-isr", "1"},
                new PrintStream(out, true)), out::toString);
        Path dir = Files.createTempDirectory("quire-upgrade");
        try (QuireNode node = Nodes.start(Nodes.config(topic, dir, "upgrade"))) {
            Http h = new Http(node.httpPort());
            JsonNode position = JSON.readTree(h.get("/admin/position").body());
            JsonNode then = JSON.readTree(Files.readString(GOLDEN.resolve("position.json")));
            assertEquals(then.path("offset").asLong(), position.path("offset").asLong());
            if (then.path("digestVersion").asInt() == position.path("digestVersion").asInt()) {
                assertEquals(then.path("digest").asText(), position.path("digest").asText(),
                        "every record of the old journal has the outcome it had under v0.1.0");
            }
            assertEquals(JSON.readTree(Files.readString(GOLDEN.resolve("view-digest.json"))),
                    JSON.readTree(h.get("/admin/view-digest?index=false").body()),
                    "the same view, beside the search index v0.1.0 did not have");
            assertTrue(h.get("/search?q=*&kind=subject&limit=1").json().path("hits").size() == 1,
                    "the replay filed the old journal's subject names");
            int reads = 0;
            for (String line : Files.readAllLines(GOLDEN.resolve("answers.ndjson"))) {
                JsonNode golden = JSON.readTree(line);
                String path = golden.path("path").asText();
                Http.Response now = h.get(path);
                assertEquals(golden.path("status").asInt(), now.status(), path + ": " + now.body());
                contains(golden.path("body"), JSON.readTree(now.body()), path);
                reads++;
            }
            assertEquals(33, reads);
            // and the upgraded registry goes on: a new subject gets an id above every id the old release gave
            Http.Response r = h.post("/subjects/after-upgrade/versions", "{\"schema\":\"{\\\"type\\\":\\\"array\\\",\\\"items\\\":\\\"int\\\"}\"}");
            assertEquals(200, r.status(), r.body());
            assertTrue(JSON.readTree(r.body()).path("id").asInt() > 10, r.body());
        }
    }

    /** {@code now} has every field {@code then} had, with the same value (new fields are allowed). */
    private static void contains(JsonNode then, JsonNode now, String where) {
        if (then.isObject()) {
            assertTrue(now.isObject(), where + ": was an object, now " + now);
            for (Iterator<Map.Entry<String, JsonNode>> it = then.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                assertTrue(now.has(f.getKey()), where + ": field " + f.getKey() + " is gone: " + now);
                contains(f.getValue(), now.get(f.getKey()), where + "." + f.getKey());
            }
        } else if (then.isArray()) {
            assertEquals(then.size(), now.size(), where + ": " + now);
            for (int i = 0; i < then.size(); i++) {
                contains(then.get(i), now.get(i), where + "[" + i + "]");
            }
        } else {
            assertEquals(then, now, where);
        }
    }
}
