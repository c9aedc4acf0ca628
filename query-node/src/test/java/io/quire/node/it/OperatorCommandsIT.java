package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.ops.JournalCommand;
import io.quire.node.ops.RebuildCommand;
import io.quire.node.ops.VerifyCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The operator commands on a real broker: two nodes verified identical (and against an offline
 * rebuild), a journal exported and imported into a fresh topic with offsets preserved (a node on
 * the copy has the same digest), and a stopped node's view rebuilt from offset 0.
 */
class OperatorCommandsIT {

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    record Run(int code, String output) {
    }

    interface Command {
        int run(String[] args, PrintStream out) throws Exception;
    }

    static Run run(Command command, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = command.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Run(code, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void verifyExportImportAndRebuild() throws Exception {
        String topic = "ops-it";
        String kafka = SharedKafka.bootstrapServers();
        Path dataA = Files.createTempDirectory("quire-ops-a");
        String positionA;
        try (QuireNode a = Nodes.start(Nodes.config(topic, dataA, "ops-a"));
             QuireNode b = Nodes.start(Nodes.config(topic, Files.createTempDirectory("quire-ops-b"), "ops-b"))) {
            Http ha = new Http(a.httpPort());
            Http hb = new Http(b.httpPort());
            for (int i = 0; i < 30; i++) {
                Http h = i % 2 == 0 ? ha : hb;
                assertEquals(200, h.post("/subjects/ops-" + i + "/versions", schemaBody(record("Ops" + i, NAME))).status());
            }
            hb.delete("/subjects/ops-3");
            ha.put("/config/ops-4", "{\"compatibility\":\"NONE\"}");
            String nodes = "http://127.0.0.1:" + a.httpPort() + ",http://127.0.0.1:" + b.httpPort();

            Run verified = run(VerifyCommand::run, "--nodes", nodes, "--bootstrap-servers", kafka,
                    "--journal-topic", topic);
            assertEquals(0, verified.code(), verified.output());
            assertTrue(verified.output().contains("IDENTICAL: 2 node(s)"), verified.output());
            positionA = ha.get("/admin/position").body();

            Path file = Files.createTempFile("quire-journal", ".ndjson");
            Run exported = run(JournalCommand::run, "export", "--file", file.toString(), "--bootstrap-servers", kafka,
                    "--journal-topic", topic);
            assertEquals(0, exported.code(), exported.output());
            Run imported = run(JournalCommand::run, "import", "--file", file.toString(), "--bootstrap-servers", kafka,
                    "--journal-topic", topic + "-copy", "--journal-replication", "1", "--journal-min-isr", "1");
            assertEquals(0, imported.code(), imported.output());
            assertTrue(imported.output().contains("offsets preserved"), imported.output());
            Run again = run(JournalCommand::run, "import", "--file", file.toString(), "--bootstrap-servers", kafka,
                    "--journal-topic", topic + "-copy");
            assertEquals(1, again.code(), "a journal that is not empty is refused");

            try (QuireNode copy = Nodes.start(Nodes.config(topic + "-copy", Files.createTempDirectory("quire-ops-c"),
                    "ops-copy"))) {
                Http hc = new Http(copy.httpPort());
                assertEquals(positionA, hc.get("/admin/position").body(), "the copy replays to the same digest");
                Run acrossCopies = run(VerifyCommand::run, "--nodes", nodes + ",http://127.0.0.1:" + copy.httpPort());
                assertEquals(0, acrossCopies.code(), acrossCopies.output());

                hc.post("/subjects/only-in-copy/versions", schemaBody(record("Diverged", NAME)));
                ha.post("/subjects/only-in-original/versions", schemaBody(record("Original", NAME)));
                Run diverged = run(VerifyCommand::run, "--nodes", "http://127.0.0.1:" + a.httpPort()
                        + ",http://127.0.0.1:" + copy.httpPort(), "--timeout-s", "10");
                assertEquals(1, diverged.code(), "different journals must not verify: " + diverged.output());
            }
            positionA = ha.get("/admin/position").body();
        }
        String viewBefore;
        try (QuireNode a = Nodes.start(Nodes.config(topic, dataA, "ops-a"))) {
            viewBefore = new Http(a.httpPort()).get("/admin/view-digest").body();
        }
        Run rebuilt = run(RebuildCommand::run, "--data-dir", dataA.toString(), "--node-id", "ops-a",
                "--bootstrap-servers", kafka, "--journal-topic", topic, "--journal-replication", "1",
                "--journal-min-isr", "1");
        assertEquals(0, rebuilt.code(), rebuilt.output());
        assertTrue(rebuilt.output().contains("records/s"), rebuilt.output());
        try (QuireNode a = Nodes.start(Nodes.config(topic, dataA, "ops-a"))) {
            Http ha = new Http(a.httpPort());
            assertEquals(positionA, ha.get("/admin/position").body());
            assertEquals(viewBefore, ha.get("/admin/view-digest").body());
        }
        assertTrue(!Files.exists(dataA.resolve("streams.before-rebuild")), "the old view is removed after success");
    }
}
