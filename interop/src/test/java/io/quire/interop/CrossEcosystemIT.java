package io.quire.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * One Quire node, two ecosystems: a record Apicurio's Java serializer wrote is read by Confluent's
 * JavaScript deserializer, and a record Confluent's serializer wrote is read by Apicurio's
 * deserializer, both resolving the same id. Skipped where Node.js and npm are not installed.
 */
class CrossEcosystemIT {

    @Test
    void apicuriosSerdeAndConfluentsClientReadEachOthersRecords() throws Exception {
        Path dir = jsClient();
        try (QuireProcess node = QuireProcess.start("cross-ecosystem-node", Files.createTempDirectory("quire-cross"))) {
            ApicurioSerdeIT.node = node;
            byte[] fromApicurio;
            try (AvroKafkaSerializer<GenericRecord> ser = ApicurioSerdeIT.serializer(ApicurioSerdeIT.config(true))) {
                fromApicurio = ser.serialize("crossings", ApicurioSerdeIT.user("from-apicurio", 33));
            }
            int rc = run(dir, 120, "node", "cross.cjs", node.url(), "crossings", HexFormat.of().formatHex(fromApicurio));
            String out = Files.readString(dir.resolve("run.log"));
            assertEquals(0, rc, out);
            JsonNode result = ApicurioSerdeIT.json(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                    .orElseThrow());
            assertEquals("from-apicurio", result.get("decoded").get("name").asText(), out);
            assertEquals(33, result.get("decoded").get("age").asInt(), out);

            byte[] fromConfluent = HexFormat.of().parseHex(result.get("bytes").asText());
            assertEquals(ApicurioSerdeIT.wireId(fromApicurio), ApicurioSerdeIT.wireId(fromConfluent),
                    "both wrote the one id of the one schema");
            try (AvroKafkaDeserializer<GenericRecord> deser =
                         ApicurioSerdeIT.deserializer(ApicurioSerdeIT.config(false))) {
                GenericRecord back = deser.deserialize("crossings", fromConfluent);
                assertEquals("from-confluent", back.get("name").toString());
                assertEquals(7, back.get("age"));
            }
        } finally {
            ApicurioSerdeIT.node = null;
        }
    }

    /** The client's folder under target/, its npm packages installed once. */
    static Path jsClient() throws Exception {
        assumeTrue(onPath("node") && onPath("npm"), "Node.js and npm are needed for this check");
        Path dir = Path.of("target", "confluent-js");
        Files.createDirectories(dir);
        for (String f : List.of("package.json", "cross.cjs")) {
            Files.copy(Path.of("src", "test", "js", f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/@confluentinc/schemaregistry"))) {
            assertEquals(0, run(dir, 600, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error"),
                    "npm install failed: see target/confluent-js/run.log");
        }
        return dir;
    }

    static int run(Path dir, int seconds, String... cmd) throws Exception {
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
