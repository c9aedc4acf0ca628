package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.view.Keys;
import io.quire.node.QuireNode;
import io.quire.node.view.apply.JournalTopology;
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
            assertEquals("it was built before versions had global ids",
                    io.quire.node.view.store.ViewLayout.rebuildReason(storeOf(dataB, "gid-b")));
            try (QuireNode b = Nodes.start(Nodes.config(topic, dataB, "gid-b"))) {
                Http hb = new Http(b.httpPort());
                Nodes.await(() -> b.appliedOffset() >= a.appliedOffset(), java.time.Duration.ofSeconds(30),
                        () -> "node b rebuilding");
                assertEquals(expected, globalIds(hb), "the rebuilt view has the ids every other node has");
                assertEquals(ha.get("/admin/view-digest").body(), hb.get("/admin/view-digest").body());
            }
            assertEquals(null, io.quire.node.view.store.ViewLayout.rebuildReason(storeOf(dataB, "gid-b")));
        }
    }

    /**
     * Turns a view back into layout 1: no layout key, each command's outcome kept under O and its
     * audit entry as JSON. Returns how many audit entries it rewrote.
     */
    static int toFirstLayout(Path store) throws Exception {
        RocksDB.loadLibrary();
        List<byte[][]> audit = new ArrayList<>();
        try (Options o = new Options(); RocksDB db = RocksDB.open(o, store.toString())) {
            db.delete(Keys.LAYOUT);
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(Keys.AUDIT); it.isValid() && it.key()[0] == 'A'; it.next()) {
                    audit.add(new byte[][] {it.key(), it.value()});
                }
            }
            for (byte[][] kv : audit) {
                io.quire.journal.view.AuditEntry e = io.quire.journal.view.AuditEntry.decode(Keys.auditOffset(kv[0]), kv[1]);
                db.put(kv[0], io.quire.journal.codec.Json.MAPPER.writeValueAsBytes(e));
                byte[] outcomeKey = kv[0].clone();
                outcomeKey[0] = 'O';
                db.put(outcomeKey, ("{\"commandId\":\"" + e.commandId() + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return audit.size();
    }

    static boolean hasKeysOfKind(Path store, byte kind) throws Exception {
        try (Options o = new Options(); RocksDB db = RocksDB.openReadOnly(o, store.toString());
             RocksIterator it = db.newIterator()) {
            it.seek(new byte[] {kind});
            return it.isValid() && it.key()[0] == kind;
        }
    }

    /** Requests to a node: writes before, checks after. */
    interface Requests {
        void on(Http a, Http b) throws Exception;
    }

    /** Turns a stopped node's view back into an older layout; answers how many entries it rewrote. */
    interface Rewrite {
        int apply(Path store) throws Exception;
    }

    /**
     * Node a takes {@code writes}; node b catches up and stops; {@code older} turns b's view back into
     * {@code layout} (at least {@code rewritten} entries); b starts again, finds the older layout,
     * rebuilds from the journal to a's digest, then {@code checks} runs against both. Answers b's store.
     */
    static Path rebuiltFromOlderLayout(String name, Requests writes, Rewrite older, int rewritten, String layout,
                                       Requests checks) throws Exception {
        String topic = "view-" + name + "-it";
        try (QuireNode a = Nodes.start(Nodes.config(topic, Files.createTempDirectory("quire-" + name + "-a"), name + "-a"))) {
            Http ha = new Http(a.httpPort());
            writes.on(ha, null);
            Path dataB = Files.createTempDirectory("quire-" + name + "-b");
            try (QuireNode b = Nodes.start(Nodes.config(topic, dataB, name + "-b"))) {
                Nodes.await(() -> b.appliedOffset() >= a.appliedOffset(), java.time.Duration.ofSeconds(30),
                        () -> "node b catching up");
            }
            Path store = storeOf(dataB, name + "-b");
            int n = older.apply(store);
            assertTrue(n >= rewritten, n + " entries rewritten");
            assertTrue(io.quire.node.view.store.ViewLayout.rebuildReason(store).contains(layout));
            try (QuireNode b = Nodes.start(Nodes.config(topic, dataB, name + "-b"))) {
                Http hb = new Http(b.httpPort());
                Nodes.await(() -> b.appliedOffset() >= a.appliedOffset(), java.time.Duration.ofSeconds(30),
                        () -> "node b rebuilding");
                assertEquals(ha.get("/admin/view-digest").body(), hb.get("/admin/view-digest").body());
                checks.on(ha, hb);
            }
            assertEquals(null, io.quire.node.view.store.ViewLayout.rebuildReason(store));
            return store;
        }
    }

    @Test
    void aViewOfAnOlderLayoutIsRebuiltToTheSameBytesAsAFreshOne() throws Exception {
        Path store = rebuiltFromOlderLayout("layout", (ha, none) -> {
            assertEquals(200, ha.post("/subjects/a-value/versions", schemaBody(record("A", NAME))).status());
            assertEquals(200, ha.post("/subjects/a-value/versions", schemaBody(record("A", NAME, AGE))).status());
            assertEquals(404, ha.delete("/subjects/missing").status());
        }, GlobalIdsIT::toFirstLayout, 3, "layout 1", // one audit entry per command
                (ha, hb) -> assertEquals(ha.get("/audit").body(), hb.get("/audit").body()));
        assertFalse(hasKeysOfKind(store, (byte) 'O'), "outcomes are no longer kept");
    }

    /**
     * Turns a view back into layout 3, the layout before the search index's lists were packed: each
     * list's entries as an 8-byte id and the schema type's letter, joined by ','. Returns how many
     * lists it rewrote.
     */
    static int toCommaJoinedLists(Path store) throws Exception {
        List<byte[][]> lists = new ArrayList<>();
        try (Options o = new Options().setMergeOperator(new org.rocksdb.StringAppendOperator(""));
             RocksDB db = RocksDB.open(o, store.toString())) {
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(new byte[] {'Q'}); it.isValid() && it.key()[0] == 'Q'; it.next()) {
                    if (it.key()[1] != 's') {
                        lists.add(new byte[][] {it.key(), it.value()});
                    }
                }
            }
            for (byte[][] kv : lists) {
                long block = java.nio.ByteBuffer.wrap(kv[0], kv[0].length - 4, 4).getInt();
                java.io.ByteArrayOutputStream old = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < kv[1].length; i += 2) {
                    int bits = (kv[1][i] & 0xff) << 8 | (kv[1][i + 1] & 0xff);
                    if (i > 0) {
                        old.write(',');
                    }
                    old.writeBytes(java.nio.ByteBuffer.allocate(8).putLong(block << 10 | bits >>> 2).array());
                    old.write("AJP".charAt(bits & 3));
                }
                db.put(kv[0], old.toByteArray());
            }
            db.put(Keys.LAYOUT, java.nio.ByteBuffer.allocate(4).putInt(3).array());
        }
        return lists.size();
    }

    @Test
    void aViewWithTheSearchIndexsCommaJoinedListsIsRebuiltAndSearchable() throws Exception {
        rebuiltFromOlderLayout("layout3", (ha, none) -> {
            assertEquals(200, ha.post("/subjects/a-value/versions", schemaBody(record("A", NAME))).status());
            assertEquals(200, ha.post("/subjects/b-value/versions", schemaBody(record("B", NAME, AGE))).status());
        }, GlobalIdsIT::toCommaJoinedLists, 3, "layout 3", (ha, hb) -> { // a list per record name and field
            Http.Response hits = hb.get("/search?q=age&kind=field");
            assertEquals(200, hits.status(), hits.body());
            assertTrue(hits.body().contains("\"b-value\"") && !hits.body().contains("\"a-value\""), hits.body());
            assertTrue(hb.get("/search?q=a&kind=record").body().contains("\"a-value\""));
        });
    }
}
