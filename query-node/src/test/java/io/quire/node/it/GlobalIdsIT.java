package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.view.Keys;
import io.quire.node.QuireNode;
import io.quire.node.view.JournalTopology;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * Global ids (Apicurio's name for a version) are a function of the journal: two nodes give every
 * version the same one, and a node whose view was built before versions had them rebuilds it from
 * the journal on start and ends with the same ids and the same view as the others.
 */
class GlobalIdsIT {

    static final String NAME = "{\"name\":\"n\",\"type\":\"string\"}";
    static final String AGE = "{\"name\":\"age\",\"type\":\"int\",\"default\":0}";

    static List<Long> globalIds(Http h) {
        List<Long> out = new ArrayList<>();
        for (String path : List.of("/a-value/versions/1", "/b-value/versions/1", "/a-value/versions/2")) {
            Http.Response r = h.get("/apis/registry/v3/groups/default/artifacts" + path);
            assertEquals(200, r.status(), r.body());
            out.add(r.json().get("globalId").asLong());
        }
        return out;
    }

    static Path storeOf(Path dataDir, String nodeId) {
        return dataDir.resolve("streams").resolve("quire-" + nodeId).resolve("global").resolve("quire")
                .resolve(JournalTopology.STORE);
    }

    /** Turns a view back into the layout written before global ids: no counter, 17-byte version records. */
    static int toLayoutWithoutGlobalIds(Path store) throws Exception {
        RocksDB.loadLibrary();
        int rewritten = 0;
        try (Options o = new Options(); RocksDB db = RocksDB.open(o, store.toString())) {
            db.delete(Keys.NEXT_GLOBAL_ID);
            List<byte[][]> versions = new ArrayList<>();
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(new byte[] {'V'}); it.isValid() && it.key()[0] == 'V'; it.next()) {
                    versions.add(new byte[][] {it.key(), it.value()});
                }
            }
            for (byte[][] kv : versions) {
                db.put(kv[0], ByteBuffer.allocate(17).put(kv[1], 0, 17).array());
                rewritten++;
            }
            List<byte[]> index = new ArrayList<>();
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(new byte[] {'W'}); it.isValid() && it.key()[0] == 'W'; it.next()) {
                    index.add(it.key());
                }
            }
            for (byte[] k : index) {
                db.delete(k);
            }
        }
        return rewritten;
    }

    @Test
    void everyNodeGivesTheSameGlobalIdsAndAViewFromBeforeThemIsRebuilt() throws Exception {
        String topic = "global-ids-it";
        try (QuireNode a = Nodes.start(Nodes.config(topic, Files.createTempDirectory("quire-gid-a"), "gid-a"))) {
            Http ha = new Http(a.httpPort());
            assertEquals(200, ha.post("/subjects/a-value/versions", schemaBody(record("A", NAME))).status());
            assertEquals(200, ha.post("/subjects/b-value/versions", schemaBody(record("A", NAME))).status());
            assertEquals(200, ha.post("/subjects/a-value/versions", schemaBody(record("A", NAME, AGE))).status());
            List<Long> expected = globalIds(ha);
            assertEquals(List.of(1L, 2L, 3L), expected, "in journal order");
            assertEquals(ha.get("/subjects/a-value/versions/1").json().get("id").asLong(),
                    ha.get("/apis/registry/v3/groups/default/artifacts/b-value/versions/1").json().get("contentId").asLong(),
                    "one content, one content id, two versions");

            Path dataB = Files.createTempDirectory("quire-gid-b");
            try (QuireNode b = Nodes.start(Nodes.config(topic, dataB, "gid-b"))) {
                Http hb = new Http(b.httpPort());
                Nodes.await(() -> b.appliedOffset() >= a.appliedOffset(), java.time.Duration.ofSeconds(30),
                        () -> "node b catching up");
                assertEquals(expected, globalIds(hb));
                assertEquals(ha.get("/admin/view-digest").body(), hb.get("/admin/view-digest").body());
            }

            assertEquals(3, toLayoutWithoutGlobalIds(storeOf(dataB, "gid-b")));
            assertTrue(io.quire.node.view.ViewLayout.predatesGlobalIds(storeOf(dataB, "gid-b")));
            try (QuireNode b = Nodes.start(Nodes.config(topic, dataB, "gid-b"))) {
                Http hb = new Http(b.httpPort());
                Nodes.await(() -> b.appliedOffset() >= a.appliedOffset(), java.time.Duration.ofSeconds(30),
                        () -> "node b rebuilding");
                assertEquals(expected, globalIds(hb), "the rebuilt view has the ids every other node has");
                assertEquals(ha.get("/admin/view-digest").body(), hb.get("/admin/view-digest").body());
            }
            assertFalse(io.quire.node.view.ViewLayout.predatesGlobalIds(storeOf(dataB, "gid-b")));
        }
    }
}
