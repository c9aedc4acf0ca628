package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quire.node.QuireNode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Confluent's own client, unmodified: the {@code @confluentinc/schemaregistry} npm package registers
 * Avro schemas against a Quire node and round-trips a record through its Avro serializer and
 * deserializer. Skipped where Node.js and npm are not installed.
 */
class ConfluentClientIT {

    @Test
    void confluentsJavaScriptClientRoundTripsAnAvroRecord() throws Exception {
        assumeTrue(onPath("node") && onPath("npm"), "Node.js and npm are needed for this check");
        Path dir = Path.of("target", "confluent-js");
        Files.createDirectories(dir);
        for (String f : List.of("package.json", "confluent-client-roundtrip.js")) {
            Files.copy(Path.of("src", "test", "js", f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/@confluentinc/schemaregistry"))) {
            assertEquals(0, run(dir, 600, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error"),
                    "npm install failed: see target/confluent-js/run.log");
        }
        try (QuireNode node = Nodes.start(Nodes.config("confluent-js-it",
                Files.createTempDirectory("quire-js-it"), "js-node"))) {
            int rc = run(dir, 120, "node", "confluent-client-roundtrip.js", "http://127.0.0.1:" + node.httpPort());
            String out = Files.readString(dir.resolve("run.log"));
            assertEquals(0, rc, out);
            assertTrue(out.contains("\"ok\":true"), out);
        }
    }

    static int run(Path dir, int seconds, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("run.log").toFile()).start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    static boolean onPath(String exe) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, exe))) {
                return true;
            }
        }
        return false;
    }
}
