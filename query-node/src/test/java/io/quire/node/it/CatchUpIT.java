package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A fresh node that catches up before Kafka Streams starts (its own consumer, decoding on another
 * thread) and one that leaves the whole journal to Streams end with the same position digest and
 * the same view, byte for byte, as the node that wrote the journal.
 */
class CatchUpIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    @Test
    void catchingUpBeforeStreamsLeavesTheViewStreamsLeaves() throws Exception {
        String topic = "catch-up-it";
        Path dir = Files.createTempDirectory("quire-catch-up");
        String position;
        String digest;
        try (QuireNode writer = Nodes.start(Nodes.config(topic, dir.resolve("w"), "catch-up-w"))) {
            Http http = new Http(writer.httpPort());
            for (int s = 0; s < 30; s++) {
                String fields = NAME;
                for (int v = 0; v < 5; v++) {
                    fields += ",{\"name\":\"f" + v + "\",\"type\":\"string\",\"default\":\"\"}";
                    assertEquals(200, http.post("/subjects/cu-" + s + "/versions", schemaBody(record("Cu" + s, fields)))
                            .status());
                }
            }
            assertEquals(409, http.post("/subjects/cu-0/versions",
                    schemaBody(record("Cu0", "{\"name\":\"n\",\"type\":\"int\"}"))).status(), "a rejection, journaled");
            http.put("/config/cu-1", "{\"compatibility\":\"NONE\"}");
            http.put("/mode/cu-2", "{\"mode\":\"READONLY\"}");
            http.delete("/subjects/cu-3/versions/2");
            http.delete("/subjects/cu-4");
            http.delete("/subjects/cu-4?permanent=true");
            http.delete("/subjects/cu-5");
            position = http.get("/admin/position").body();
            digest = http.get("/admin/view-digest").body();
        }
        try (QuireNode caughtUp = Nodes.start(Nodes.config(topic, dir.resolve("c"), "catch-up-c",
                "--view-catch-up-min-records", "1"));
             QuireNode streamed = Nodes.start(Nodes.config(topic, dir.resolve("s"), "catch-up-s",
                     "--view-catch-up-min-records", "1000000"))) {
            assertTrue(caughtUp.recordsCaughtUpBeforeStreams() > 150, "the catch-up applied the journal: "
                    + caughtUp.recordsCaughtUpBeforeStreams());
            assertEquals(0, streamed.recordsCaughtUpBeforeStreams(), "Streams applied all of it");
            for (QuireNode n : new QuireNode[] {caughtUp, streamed}) {
                Http http = new Http(n.httpPort());
                assertEquals(position, http.get("/admin/position").body(), "the same position digest");
                assertEquals(digest, http.get("/admin/view-digest").body(), "the same bytes");
            }
            Http c = new Http(caughtUp.httpPort());
            long id = c.post("/subjects/cu-after/versions", schemaBody(record("CuAfter", NAME))).json().get("id").asLong();
            assertEquals(id, c.get("/subjects/cu-after/versions/1").json().get("id").asLong(),
                    "Kafka Streams goes on from where the catch-up stopped");
        }
    }
}
