package io.quire.node.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.LintConfig;
import io.quire.journal.model.Metadata;
import io.quire.node.schema.AvroSupport;
import io.quire.node.schema.JsonSchemaSupport;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.ProtobufSupport;
import io.quire.node.schema.SchemaSupport;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every rule against its golden files (src/test/resources/lint/RULE/): each {@code pass.*} breaks
 * nothing, each {@code fail.*} breaks the rule exactly where {@code fail.*.expected} says, with the
 * rule alone turned on. The Protobuf cases follow buf's documented examples for the same names.
 */
class LintRulesTest {

    static final Map<String, SchemaSupport<?>> LANGUAGES = Map.of("avsc", new AvroSupport(), "json",
            new JsonSchemaSupport(), "proto", new ProtobufSupport());

    static Path root() throws URISyntaxException {
        return Path.of(LintRulesTest.class.getResource("/lint").toURI());
    }

    static List<Violation> lint(Path file, LintConfig config) throws IOException {
        String name = file.getFileName().toString();
        String ext = name.substring(name.indexOf('.') + 1);
        String text = Files.readString(file);
        ParsedSchema<?> parsed = LANGUAGES.get(ext).parse(text, List.of(), Map.of());
        return Lint.check(parsed, text, null, Lint.settings(config));
    }

    static LintConfig only(LintRule rule) {
        return new LintConfig("NONE", List.of(rule.name()), null, List.of("email"), null, null, null);
    }

    @Test
    void everyRulePassesAndFailsOnItsGoldenFiles() throws Exception {
        List<String> checked = new ArrayList<>();
        for (LintRule rule : LintRule.values()) {
            Path dir = root().resolve(rule.name());
            assertTrue(Files.isDirectory(dir), "no golden files for " + rule);
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(p -> !p.toString().endsWith(".expected")).sorted().toList();
            }
            assertTrue(files.stream().anyMatch(p -> p.getFileName().toString().startsWith("pass")), rule + ": a pass");
            assertTrue(files.stream().anyMatch(p -> p.getFileName().toString().startsWith("fail")), rule + ": a fail");
            for (Path f : files) {
                List<String> found = lint(f, only(rule)).stream().map(v -> v.rule() + " at " + v.path()).toList();
                if (f.getFileName().toString().startsWith("pass")) {
                    assertEquals(List.of(), found, f.toString());
                } else {
                    List<String> expected = Files.readAllLines(f.resolveSibling(f.getFileName() + ".expected"))
                            .stream().filter(l -> !l.isBlank()).toList();
                    assertEquals(expected, found, f.toString());
                }
                checked.add(rule + " " + f.getFileName());
            }
        }
        assertTrue(checked.size() >= 2 * LintRule.values().length, checked.toString());
    }

    @Test
    void profilesNestAndUseAndExceptNameRulesOrCategories() {
        Lint.Settings minimal = Lint.settings(new LintConfig("MINIMAL", null, null, null, null, null, null));
        Lint.Settings basic = Lint.settings(new LintConfig("BASIC", null, null, null, null, null, null));
        Lint.Settings standard = Lint.settings(new LintConfig(null, null, null, null, null, null, null));
        assertTrue(basic.rules().containsAll(minimal.rules()) && standard.rules().containsAll(basic.rules()));
        assertTrue(minimal.rules().contains(LintRule.PACKAGE_DEFINED) && !minimal.rules().contains(LintRule.FIELD_LOWER_SNAKE_CASE));
        assertTrue(basic.rules().contains(LintRule.FIELD_LOWER_SNAKE_CASE) && !basic.rules().contains(LintRule.ENUM_VALUE_PREFIX));
        assertTrue(standard.rules().contains(LintRule.ENUM_ZERO_VALUE_SUFFIX), "STANDARD is the default");
        assertFalse(standard.rules().contains(LintRule.COMMENT_FIELD), "COMMENTS stands apart, as in buf");
        Lint.Settings tuned = Lint.settings(new LintConfig("STANDARD", List.of("COMMENTS"),
                List.of("ENUM_VALUE_PREFIX", "avro_field_doc"), null, null, "warn", null));
        assertTrue(tuned.rules().contains(LintRule.COMMENT_FIELD) && !tuned.rules().contains(LintRule.AVRO_FIELD_DOC));
        assertFalse(tuned.rules().contains(LintRule.ENUM_VALUE_PREFIX));
        assertTrue(tuned.warns());
        assertThrows(IllegalArgumentException.class, () -> Lint.settings(new LintConfig("STRICT", null, null, null,
                null, null, null)));
        assertThrows(IllegalArgumentException.class, () -> Lint.settings(new LintConfig(null, List.of("NO_SUCH_RULE"),
                null, null, null, null, null)));
        assertThrows(IllegalArgumentException.class, () -> Lint.settings(new LintConfig(null, null, null,
                List.of("(unclosed"), null, null, null)));
        assertThrows(IllegalArgumentException.class, () -> Lint.settings(new LintConfig(null, null, null, null, null,
                "IGNORE", null)));
    }

    @Test
    void aTagInTheDataContractsMetadataCountsAndReferencedTypesAreNotJudged() throws Exception {
        String text = Files.readString(root().resolve("PII_TAGGED/fail.avsc"));
        ParsedSchema<?> parsed = LANGUAGES.get("avsc").parse(text, List.of(), Map.of());
        Lint.Settings pii = Lint.settings(only(LintRule.PII_TAGGED));
        assertEquals(1, Lint.check(parsed, text, null, pii).size());
        Metadata tagged = Metadata.of(Map.of("Order.customerEmail", List.of("PII")), null, null);
        assertEquals(List.of(), Lint.check(parsed, text, tagged, pii));

        // a record naming a referenced type by name: only its own field is judged
        String order = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"acme\",\"fields\":[{\"name\":\"to\","
                + "\"type\":\"acme.shared.address_v1\"}]}";
        String address = "{\"type\":\"record\",\"name\":\"address_v1\",\"namespace\":\"acme.shared\",\"fields\":"
                + "[{\"name\":\"street_name\",\"type\":\"string\"}]}";
        ParsedSchema<?> withRef = LANGUAGES.get("avsc").parse(order, List.of(new io.quire.journal.model.SchemaReference(
                "acme.shared.address_v1", io.quire.journal.model.Subject.of("address"),
                io.quire.journal.model.Version.of(1))), Map.of("acme.shared.address_v1", address));
        assertEquals(List.of(), Lint.check(withRef, order, null, Lint.settings(new LintConfig("STANDARD", null, null,
                null, null, null, null))));
    }

    @Test
    void theZeroValueSuffixIsConfigurable() throws Exception {
        Path fail = root().resolve("ENUM_ZERO_VALUE_SUFFIX/fail.proto");
        assertEquals(List.of(), lint(fail, new LintConfig("NONE", List.of("ENUM_ZERO_VALUE_SUFFIX"), null, null, null,
                null, "_NONE")));
    }
}
