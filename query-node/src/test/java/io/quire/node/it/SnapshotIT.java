package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.ops.SnapshotCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A snapshot of a running node's view, and a fresh node bootstrapped from it: it applies only the
 * journal records after the snapshot and ends with the same digest and view as the original. A
 * snapshot of another journal is refused.
 */
class SnapshotIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    @Test
    void aNodeSnapshotsByItselfEveryNRecordsAndKeepsTheNewest() throws Exception {
        Path data = Files.createTempDirectory("quire-snap-auto");
        try (QuireNode a = Nodes.start(Nodes.config("snapshot-auto-it", data, "snap-auto",
                "--snapshot-every-records", "40", "--snapshot-retain", "2"))) {
            Http h = new Http(a.httpPort());
            Path folder = data.resolve("snapshots");
            for (int wave = 0; wave < 3; wave++) { // three waves, each more than 40 records past the last snapshot
                for (int i = 0; i < 45; i++) {
                    assertEquals(200, h.post("/subjects/auto-" + wave + "-" + i + "/versions",
                            schemaBody(record("Auto" + wave + "x" + i, NAME))).status());
                }
                long end = a.appliedOffset();
                Nodes.await(() -> newest(folder) >= end, java.time.Duration.ofSeconds(30),
                        () -> "no snapshot at offset " + end + " in " + folder);
            }
            // The old ones go right after the new one is in place: wait for that, not just for the new one.
            Nodes.await(() -> snapshotCount(folder) <= 2, java.time.Duration.ofSeconds(10),
                    () -> snapshotCount(folder) + " snapshots in " + folder);
            assertEquals(2, snapshotCount(folder), "only the newest two are kept");
        }
    }

    static long snapshotCount(Path folder) {
        try (var s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().startsWith("snapshot-")).count();
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    /** The offset of the newest complete snapshot in a folder, or -1. */
    static long newest(Path folder) {
        try (var s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().matches("snapshot-\\d+")
                    && Files.isRegularFile(p.resolve("quire-snapshot.json")))
                    .mapToLong(p -> Long.parseLong(p.getFileName().toString().substring(9))).max().orElse(-1);
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    @Test
    void freshNodeStartsFromSnapshotAndReplaysOnlyTheTail() throws Exception {
        String topic = "snapshot-it";
        try (QuireNode a = Nodes.start(Nodes.config(topic, Files.createTempDirectory("quire-snap-a"), "snap-a"))) {
            Http ha = new Http(a.httpPort());
            for (int i = 0; i < 150; i++) {
                assertEquals(200, ha.post("/subjects/snap-" + i + "/versions", schemaBody(record("Snap" + i, NAME)))
                        .status());
            }
            assertEquals(200, ha.post("/dek-registry/v1/keks", "{\"name\":\"snap-kek\",\"kmsType\":\"local-kms\","
                    + "\"kmsKeyId\":\"k\"}").status());
            assertEquals(200, ha.post("/dek-registry/v1/keks/snap-kek/deks/snap-3", "{\"encryptedKeyMaterial\":\"d3JhcA==\"}")
                    .status());
            OperatorCommandsIT.Run made = OperatorCommandsIT.run(SnapshotCommand::run, "--node",
                    "http://127.0.0.1:" + a.httpPort());
            assertEquals(0, made.code(), made.output());
            Matcher m = Pattern.compile("snapshot at offset (\\d+) .*\\n(.+)\\n").matcher(made.output());
            assertTrue(m.find(), made.output());
            long snapshotOffset = Long.parseLong(m.group(1));
            Path snapshot = Path.of(m.group(2));
            assertTrue(Files.isRegularFile(snapshot.resolve("quire-snapshot.json")));

            for (int i = 150; i < 200; i++) {
                assertEquals(200, ha.post("/subjects/snap-" + i + "/versions", schemaBody(record("Snap" + i, NAME)))
                        .status());
            }
            ha.delete("/subjects/snap-7");
            long end = a.appliedOffset();
            assertTrue(end > snapshotOffset + 50, "the journal moved on after the snapshot");

            try (QuireNode b = Nodes.start(Nodes.config(topic, Files.createTempDirectory("quire-snap-b"), "snap-b",
                    "--bootstrap-snapshot", snapshot.toString()))) {
                Http hb = new Http(b.httpPort());
                assertEquals(ha.get("/admin/position").body(), hb.get("/admin/position").body());
                assertEquals(ha.get("/admin/view-digest").body(), hb.get("/admin/view-digest").body());
                assertEquals(end - snapshotOffset, appliedCommands(hb),
                        "only the records after the snapshot are applied");
                assertEquals(200, hb.get("/subjects/snap-3/versions/1").status(), "from the snapshot");
                assertEquals(200, hb.get("/subjects/snap-180/versions/1").status(), "from the tail");
                assertEquals(40401, hb.get("/subjects/snap-7/versions/1").errorCode(), "deleted in the tail");
                assertEquals("d3JhcA==", hb.get("/dek-registry/v1/keks/snap-kek/deks/snap-3").json()
                        .get("encryptedKeyMaterial").asText(), "a DEK from the snapshot");
            }

            Path other = Files.createTempDirectory("quire-snap-c");
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Nodes.start(
                    Nodes.config(topic + "-other", other, "snap-c", "--bootstrap-snapshot", snapshot.toString())));
            assertTrue(refused.getMessage().contains("is of journal 'snapshot-it'"), refused.getMessage());
        }
    }

    /** The node's count of journal commands applied since it started, from its Prometheus metrics. */
    static long appliedCommands(Http h) {
        long sum = 0;
        for (String line : h.get("/metrics").body().split("\n")) {
            if (line.startsWith("quire_journal_commands_total{")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
