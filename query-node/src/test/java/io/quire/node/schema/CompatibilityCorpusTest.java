package io.quire.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Version;
import io.quire.node.schema.CompatibilityChecker.Earlier;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The compatibility corpus: per schema type, a table of cases {@code (old versions…, new schema,
 * level) -> compatible?} under {@code src/test/resources/compat/}, written from the rules each
 * type follows (see docs/compatibility.md), not from this implementation's output.
 */
class CompatibilityCorpusTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> avro() throws IOException {
        return corpus("avro", new AvroSupport());
    }

    @TestFactory
    Stream<DynamicTest> jsonSchema() throws IOException {
        return corpus("json", new JsonSchemaSupport());
    }

    @TestFactory
    Stream<DynamicTest> protobuf() throws IOException {
        return corpus("protobuf", new ProtobufSupport(), new ProtobufSupport(true));
    }

    static Stream<DynamicTest> corpus(String file, SchemaSupport<?> support) throws IOException {
        return corpus(file, support, support);
    }

    /** {@code strict}: the language with Quire's opt-in stricter rules, for cases marked "strict". */
    static Stream<DynamicTest> corpus(String file, SchemaSupport<?> defaults, SchemaSupport<?> strict) throws IOException {
        JsonNode cases;
        try (InputStream in = CompatibilityCorpusTest.class.getResourceAsStream("/compat/" + file + ".json")) {
            cases = JSON.readTree(in);
        }
        assertTrue(cases.size() >= 40, file + " corpus has " + cases.size() + " cases");
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : cases) {
            CompatibilityLevel level = CompatibilityLevel.valueOf(c.get("level").asText());
            String name = file + ": " + c.get("name").asText() + " [" + level + "]";
            SchemaSupport<?> support = c.path("strict").asBoolean() ? strict : defaults;
            tests.add(DynamicTest.dynamicTest(name, () -> {
                List<Earlier> earlier = new ArrayList<>();
                int v = 1;
                for (JsonNode old : c.get("old")) {
                    earlier.add(new Earlier(Version.of(v++), support.parse(text(old), List.of(), Map.of())));
                }
                ParsedSchema<?> candidate = support.parse(text(c.get("new")), List.of(), Map.of());
                List<String> problems = CompatibilityChecker.check(support, level, candidate, earlier);
                assertEquals(c.get("compatible").asBoolean(), problems.isEmpty(), name + ": " + problems);
            }));
        }
        return tests.stream();
    }

    /** A schema in the corpus: the text itself for Protobuf, the JSON value's text otherwise. */
    static String text(JsonNode schema) {
        return schema.isTextual() && schema.asText().startsWith("syntax") ? schema.asText() : schema.toString();
    }
}
