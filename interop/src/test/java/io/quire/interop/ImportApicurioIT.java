package io.quire.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code quire.jar import-apicurio} on the export of a real Apicurio Registry 3.3.3 (the committed
 * fixture; see its README): ids, versions, states, references and rules arrive, the records
 * Apicurio's serde wrote against Apicurio before the move are read by the same serde against Quire
 * after it, a second run changes nothing, and an export with what Quire cannot map is refused
 * whole.
 */
class ImportApicurioIT {

    static final Path FIXTURE = Path.of("src", "test", "resources", "apicurio-3.3.3");

    record Run(int code, String output) {
    }

    static Run importApicurio(QuireProcess node, Path export, String... extra) throws Exception {
        String jar = System.getProperty("quire.jar", "../query-node/target/quire.jar");
        Path log = Files.createTempFile("import-apicurio", ".log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar, "import-apicurio", "--file", export.toString(), "--node", node.url()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "import-apicurio finished");
        return new Run(p.exitValue(), Files.readString(log));
    }

    /** Each version in the export: "artifact/version" → its ArtifactVersion entity. */
    static Map<String, JsonNode> exportedVersions(Path export) throws IOException {
        Map<String, JsonNode> out = new TreeMap<>();
        try (ZipFile zip = new ZipFile(export.toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                if (e.getName().endsWith(".ArtifactVersion.json")) {
                    JsonNode v = ApicurioSerdeIT.JSON.readTree(new String(zip.getInputStream(e).readAllBytes(),
                            StandardCharsets.UTF_8));
                    out.put(v.get("artifactId").asText() + "/" + v.get("version").asText(), v);
                }
            }
        }
        return out;
    }

    @Test
    void anApicurioExportArrivesWithItsIdsAndOldRecordsStayReadable() throws Exception {
        try (QuireProcess node = QuireProcess.start("import-apicurio-node", Files.createTempDirectory("quire-import-ap"))) {
            Run refused = importApicurio(node, FIXTURE.resolve("export-unmappable.zip"));
            assertEquals(2, refused.code(), refused.output());
            assertTrue(refused.output().contains("artifact refunds-value of group payments-team"), refused.output());
            assertTrue(refused.output().contains("type OPENAPI"), refused.output());
            assertTrue(refused.output().contains("version 1.0.0 of artifact named-value"), refused.output());
            assertEquals("[]", node.get("/subjects").body(), "a refused import writes nothing");
            Run duplicate = importApicurio(node, FIXTURE.resolve("export-duplicate-content.zip"));
            assertEquals(2, duplicate.code(), duplicate.output());
            assertTrue(duplicate.output().contains("version 1 of artifact spaced-value (content id 2): Quire would refuse"
                    + " it: 42207"), duplicate.output());
            assertEquals("[]", node.get("/subjects").body(), "two contents that are one schema to Quire: nothing written");

            Path export = FIXTURE.resolve("export.zip");
            Run run = importApicurio(node, export);
            assertEquals(0, run.code(), run.output());
            assertTrue(run.output().contains("imported 8 of 8 subject versions (1 soft-deleted)"), run.output());

            Map<String, JsonNode> versions = exportedVersions(export);
            assertEquals(8, versions.size());
            for (Map.Entry<String, JsonNode> e : versions.entrySet()) {
                JsonNode source = e.getValue();
                String[] av = e.getKey().split("/");
                var got = node.get("/apis/registry/v3/groups/default/artifacts/" + av[0] + "/versions/" + av[1]);
                assertEquals(200, got.statusCode(), e.getKey() + ": " + got.body());
                JsonNode meta = ApicurioSerdeIT.json(got.body());
                assertEquals(source.get("globalId").asLong(), meta.get("globalId").asLong(), e.getKey());
                assertEquals(source.get("contentId").asLong(), meta.get("contentId").asLong(), e.getKey());
                assertEquals(source.get("state").asText(), meta.get("state").asText(), e.getKey());
                var confluent = node.get("/subjects/" + av[0] + "/versions/" + av[1] + "?deleted=true");
                assertEquals(source.get("contentId").asLong(), ApicurioSerdeIT.json(confluent.body()).get("id").asLong(),
                        "the content id is the Confluent id: " + e.getKey());
            }
            assertEquals("[1]", node.get("/subjects/legacy-value/versions").body(), "the DISABLED version is soft-deleted");
            assertEquals("PROTOBUF", ApicurioSerdeIT.json(node.get("/subjects/payments-value/versions/1").body())
                    .get("schemaType").asText());
            JsonNode people = ApicurioSerdeIT.json(node.get("/subjects/people-value/versions/1").body());
            assertEquals("quire.fixture.Address", people.get("references").get(0).get("subject").asText());
            assertEquals("BACKWARD_TRANSITIVE", ApicurioSerdeIT.json(node.get("/config").body())
                    .get("compatibilityLevel").asText());
            assertEquals("FULL", ApicurioSerdeIT.json(node.get("/config/users-value").body())
                    .get("compatibilityLevel").asText());
            assertEquals("READWRITE", ApicurioSerdeIT.json(node.get("/mode").body()).get("mode").asText());

            // Records Apicurio's serde wrote against Apicurio, before the move, read by the same serde against Quire.
            ApicurioSerdeIT.node = node;
            JsonNode records = ApicurioSerdeIT.JSON.readTree(Files.readString(FIXTURE.resolve("records.json")));
            try (AvroKafkaDeserializer<GenericRecord> deser =
                         ApicurioSerdeIT.deserializer(ApicurioSerdeIT.config(false))) {
                for (JsonNode r : records) {
                    GenericRecord back = deser.deserialize(r.get("topic").asText(),
                            HexFormat.of().parseHex(r.get("hex").asText()));
                    assertEquals(r.get("value").asText(), back.get(r.get("field").asText()).toString(), r.toString());
                }
            }

            // A second run (forced: the target has subjects now) finds everything in place.
            List<String> before = subjectsAndVersions(node);
            Run again = importApicurio(node, export, "--force", "true");
            assertEquals(0, again.code(), again.output());
            assertEquals(before, subjectsAndVersions(node));

            // New versions after the move get new ids, above the imported ones.
            Schema userV3 = new Schema.Parser().parse("""
                    {"type":"record","name":"User","namespace":"quire.fixture","fields":[{"name":"name","type":"string"},
                      {"name":"email","type":"string","default":""},{"name":"team","type":"string","default":""}]}""");
            GenericRecord u = new GenericData.Record(userV3);
            u.put("name", "lin");
            u.put("email", "");
            u.put("team", "core");
            try (AvroKafkaSerializer<GenericRecord> ser = ApicurioSerdeIT.serializer(ApicurioSerdeIT.config(true))) {
                int contentId = ApicurioSerdeIT.wireId(ser.serialize("users", u));
                long maxContent = versions.values().stream().mapToLong(v -> v.get("contentId").asLong()).max().orElseThrow();
                assertTrue(contentId > maxContent, contentId + " above " + maxContent);
            }
            JsonNode v3 = ApicurioSerdeIT.json(node.get("/apis/registry/v3/groups/default/artifacts/users-value/versions/3")
                    .body());
            long maxGlobal = versions.values().stream().mapToLong(v -> v.get("globalId").asLong()).max().orElseThrow();
            assertEquals(maxGlobal + 1, v3.get("globalId").asLong());
        } finally {
            ApicurioSerdeIT.node = null;
        }
    }

    static List<String> subjectsAndVersions(QuireProcess node) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode s : ApicurioSerdeIT.json(node.get("/subjects?deleted=true").body())) {
            out.add(s.asText() + " " + node.get("/subjects/" + s.asText() + "/versions?deleted=true").body());
        }
        return out;
    }
}
