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
        String out = runScript("confluent-js-it", "confluent-client-roundtrip.js", 120);
        assertTrue(out.contains("\"ok\":true"), out);
    }

    /**
     * Data contracts as today's clients use them, run by the client's own rule executors: a CEL
     * condition refusing a record, a CEL_FIELD transform, a JSONata upgrade and downgrade between
     * two major versions of one subject (compatibilityGroup, use.latest.with.metadata), GUIDs in
     * record headers for Avro, JSON Schema and Protobuf, a Protobuf schema importing
     * confluent/meta.proto, and a subject in a named context (its own id, read back by the
     * deserializer in that context). The script prints a line per check.
     */
    @Test
    void confluentsJavaScriptClientRunsDataContractRulesAndReadsByGuid() throws Exception {
        String out = runScript("confluent-js-contracts-it", "data-contracts.cjs", 180);
        System.out.println(out);
        assertTrue(out.contains("ALL OK"), out);
        assertTrue(out.contains("OK and the deserializer reads the id in that context"), out);
    }

    /**
     * Client-side field-level encryption through the DEK registry, with the client's own ENCRYPT and
     * ENCRYPT_PAYLOAD executors and its offline LocalKmsDriver: records written through node A are
     * decrypted by a client of node B; a PII field, a whole payload, AES256_SIV (deterministic), a
     * DEK rotated by expiry with old records still readable, a schema with references, and two
     * serializers racing to create one DEK; the DEK reaches the registry wrapped only. Then a KEK
     * shared with the registry: the nodes make the DEK with their local KMS, wrapped as the client's
     * own local KMS does, and clients with no KMS secret encrypt and decrypt.
     */
    @Test
    void confluentsJavaScriptClientEncryptsFieldsWithKeysFromTheDekRegistryOfTwoNodes() throws Exception {
        Path dir = jsClient();
        Path secret = Files.createTempFile("quire-kms", ".secret");
        Files.writeString(secret, "quire-test-secret\n"); // the clients' local-kms secret, for the shared KEK
        try (QuireNode a = Nodes.start(Nodes.config("confluent-js-encryption-it",
                Files.createTempDirectory("quire-enc-a"), "enc-a", "--kms-local-secret-file", secret.toString()));
             QuireNode b = Nodes.start(Nodes.config("confluent-js-encryption-it",
                     Files.createTempDirectory("quire-enc-b"), "enc-b", "--kms-local-secret-file", secret.toString()))) {
            int rc = run(dir, 180, "node", "encryption.cjs", "http://127.0.0.1:" + a.httpPort(),
                    "http://127.0.0.1:" + b.httpPort());
            String out = Files.readString(dir.resolve("run.log"));
            System.out.println(out);
            assertEquals(0, rc, out);
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    /** Runs one script of the client against a fresh node on its own journal; its output, after exit code 0. */
    static String runScript(String topic, String script, int seconds) throws Exception {
        Path dir = jsClient();
        try (QuireNode node = Nodes.start(Nodes.config(topic, Files.createTempDirectory("quire-" + topic),
                topic + "-node"))) {
            int rc = run(dir, seconds, "node", script, "http://127.0.0.1:" + node.httpPort());
            String out = Files.readString(dir.resolve("run.log"));
            assertEquals(0, rc, out);
            return out;
        }
    }

    /** The client's folder under target/, its npm packages installed once. */
    static Path jsClient() throws IOException, InterruptedException {
        assumeTrue(onPath("node") && onPath("npm"), "Node.js and npm are needed for this check");
        Path dir = Path.of("target", "confluent-js");
        Files.createDirectories(dir);
        for (String f : List.of("package.json", "confluent-client-roundtrip.js", "data-contracts.cjs", "encryption.cjs",
                "oidc.cjs")) {
            Files.copy(Path.of("src", "test", "js", f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/@bufbuild/protobuf"))) {
            assertEquals(0, run(dir, 600, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error"),
                    "npm install failed: see target/confluent-js/run.log");
        }
        return dir;
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
