package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.security.UsersFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A fresh node on an empty disk fetches a running node's snapshot over HTTP (admin role, as a
 * compressed archive) and replays only the journal after it; a reader's credentials are refused
 * and leave no view behind.
 */
class SnapshotFetchIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    @Test
    void aFreshNodeFetchesAnAdminsSnapshotFromARunningNode() throws Exception {
        String topic = "snapshot-fetch-it";
        Path dir = Files.createTempDirectory("quire-fetch");
        Path users = dir.resolve("users");
        Files.write(users, java.util.List.of(
                "reader:" + UsersFile.hash("readerpw".toCharArray(), 4) + ":reader",
                "admin:" + UsersFile.hash("adminpw".toCharArray(), 4) + ":admin"));
        Path adminAuth = dir.resolve("admin.auth");
        Files.writeString(adminAuth, Http.basic("admin", "adminpw") + "\n");
        Path readerAuth = dir.resolve("reader.auth");
        Files.writeString(readerAuth, Http.basic("reader", "readerpw"));

        try (QuireNode a = Nodes.start(Nodes.config(topic, dir.resolve("a"), "fetch-a", "--auth-users-file",
                users.toString()))) {
            Http ha = new Http(a.httpPort()).as(Http.basic("admin", "adminpw"));
            for (int i = 0; i < 120; i++) {
                assertEquals(200, ha.post("/subjects/fetch-" + i + "/versions", schemaBody(record("Fetch" + i, NAME)))
                        .status());
            }
            assertEquals(403, new Http(a.httpPort()).as(Http.basic("reader", "readerpw"))
                    .get("/admin/snapshot/archive").status(), "an archive is the whole view: admins only");
            String url = "http://127.0.0.1:" + a.httpPort();

            Path refusedDir = dir.resolve("refused");
            Exception refused = assertThrows(Exception.class, () -> Nodes.start(Nodes.config(topic, refusedDir,
                    "fetch-r", "--bootstrap-snapshot", url, "--bootstrap-snapshot-authorization-file",
                    readerAuth.toString())));
            assertTrue(refused.getMessage().contains("answered 403"), refused.getMessage());
            assertFalse(Files.exists(refusedDir.resolve("streams")), "no view was made");
            Exception stillRefused = assertThrows(Exception.class, () -> Nodes.start(Nodes.config(topic,
                    dir.resolve("refused-2"), "fetch-r2", "--bootstrap-snapshot", url,
                    "--bootstrap-snapshot-authorization-file", readerAuth.toString(),
                    "--bootstrap-snapshot-required", "false")));
            assertTrue(stillRefused.getMessage().contains("answered 403"), "a refusal is a mistake, not a missing peer");

            // No node listens at the URL (the first pod of a new cluster): with the snapshot not
            // required, the node replays the journal from the start instead.
            int closed;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
                closed = s.getLocalPort();
            }
            try (QuireNode c = Nodes.start(Nodes.config(topic, dir.resolve("c"), "fetch-c", "--auth-users-file",
                    users.toString(), "--bootstrap-snapshot", "http://127.0.0.1:" + closed,
                    "--bootstrap-snapshot-required", "false"))) {
                Http hc = new Http(c.httpPort()).as(Http.basic("admin", "adminpw"));
                assertEquals(ha.get("/admin/view-digest").body(), hc.get("/admin/view-digest").body());
                assertTrue(SnapshotIT.appliedCommands(hc) >= 120, "replayed from the start");
            }

            long before = a.appliedOffset();
            try (QuireNode b = Nodes.start(Nodes.config(topic, dir.resolve("b"), "fetch-b", "--auth-users-file",
                    users.toString(), "--bootstrap-snapshot", url, "--bootstrap-snapshot-authorization-file",
                    adminAuth.toString()))) {
                Http hb = new Http(b.httpPort()).as(Http.basic("admin", "adminpw"));
                assertEquals(ha.get("/admin/position").body(), hb.get("/admin/position").body());
                assertEquals(ha.get("/admin/view-digest").body(), hb.get("/admin/view-digest").body());
                assertTrue(SnapshotIT.appliedCommands(hb) <= a.appliedOffset() - before + 1,
                        "the fetched snapshot stood at the end of the journal: nothing (or the snapshot's own "
                                + "records) left to replay, got " + SnapshotIT.appliedCommands(hb));
                assertEquals(200, hb.get("/subjects/fetch-7/versions/1").status());
                Http.Response after = hb.post("/subjects/fetch-after/versions", schemaBody(record("After", NAME)));
                assertEquals(200, after.status());
                // Read on the other node once it has applied the write (it may be a moment behind).
                assertEquals(200, ha.get("/subjects/fetch-after/versions/1", "X-Quire-Min-Offset",
                        Long.toString(after.offset())).status(), "one journal, both nodes");
            }
            try (var left = Files.list(dir.resolve("b").resolve("snapshots"))) {
                assertEquals(0, left.count(), "the fetched copy was moved into place, nothing left behind");
            }
            // The archive is compressed as it is sent: chunked, its files' size announced, its offset the manifest's.
            java.net.HttpURLConnection c = (java.net.HttpURLConnection) java.net.URI.create(url
                    + "/admin/snapshot/archive").toURL().openConnection();
            c.setRequestProperty("Authorization", Http.basic("admin", "adminpw"));
            assertEquals(200, c.getResponseCode());
            assertEquals("chunked", c.getHeaderField("Transfer-Encoding"));
            Path got = dir.resolve("got");
            try (java.io.InputStream in = c.getInputStream()) {
                long[] unpacked = {0};
                io.quire.node.view.snapshot.SnapshotArchive.read(in, got, n -> unpacked[0] += n);
                assertEquals(Long.parseLong(c.getHeaderField("X-Quire-Snapshot-Raw-Bytes")), unpacked[0]);
            }
            assertEquals(Long.parseLong(c.getHeaderField("X-Quire-Snapshot-Offset")),
                    io.quire.node.view.snapshot.Snapshots.manifest(got).offset());
        }
    }
}
