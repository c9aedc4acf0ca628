package io.quire.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Version;
import io.quire.node.schema.CompatibilityChecker.Earlier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Avro parsing, canonical form and the level rules, without a broker. */
class AvroCompatibilityTest {

    final AvroSupport avro = new AvroSupport();

    ParsedSchema<?> parse(String text) {
        return avro.parse(text, List.of(), Map.of());
    }

    static String rec(String... fields) {
        return "{\"type\":\"record\",\"name\":\"R\",\"fields\":[" + String.join(",", fields) + "]}";
    }

    static final String A = "{\"name\":\"a\",\"type\":\"string\"}";
    static final String B_DEFAULT = "{\"name\":\"b\",\"type\":\"int\",\"default\":0}";
    static final String B = "{\"name\":\"b\",\"type\":\"int\"}";

    List<String> check(CompatibilityLevel level, String candidate, String... earlier) {
        List<Earlier> list = new java.util.ArrayList<>();
        for (int i = 0; i < earlier.length; i++) {
            list.add(new Earlier(Version.of(i + 1), parse(earlier[i])));
        }
        return CompatibilityChecker.check(avro, level, parse(candidate), list);
    }

    @Test
    void equivalentTextHasOneCanonicalFormAndFingerprint() {
        ParsedSchema<?> spaced = parse("{ \"type\" : \"string\" }");
        ParsedSchema<?> plain = parse("\"string\"");
        assertEquals("\"string\"", spaced.canonical());
        assertEquals(plain.fingerprint(), spaced.fingerprint());
        assertNotEquals(plain.fingerprint(), parse("\"int\"").fingerprint());
    }

    @Test
    void invalidAvroIsRefusedWith42201() {
        InvalidSchemaException e = assertThrows(InvalidSchemaException.class, () -> parse("{\"type\":\"record\"}"));
        assertTrue(e.getMessage().startsWith("Invalid schema"), e.getMessage());
        assertThrows(InvalidSchemaException.class, () -> parse("{\"type\":\"nosuchtype\"}"));
        assertThrows(InvalidSchemaException.class, () -> parse("not json"));
        InvalidSchemaException undefined = assertThrows(InvalidSchemaException.class,
                () -> parse("{\"type\":\"array\",\"items\":\"com.example.Missing\"}"));
        assertTrue(undefined.getMessage().contains("com.example.Missing"), "an undefined named type is the user's error");
    }

    @Test
    void backwardMeansTheNewSchemaReadsTheOld() {
        assertTrue(check(CompatibilityLevel.BACKWARD, rec(A, B_DEFAULT), rec(A)).isEmpty());
        List<String> problems = check(CompatibilityLevel.BACKWARD, rec(A, B), rec(A));
        assertTrue(problems.get(0).contains("READER_FIELD_MISSING_DEFAULT_VALUE"), problems.toString());
        assertTrue(problems.get(0).contains("in the new schema has no default value and is missing in the old schema"),
                problems.toString());
        assertTrue(problems.contains("{compatibility: 'BACKWARD'}"));
    }

    @Test
    void forwardMeansTheOldSchemaReadsTheNew() {
        assertTrue(check(CompatibilityLevel.FORWARD, rec(A, B), rec(A)).isEmpty(), "old ignores the added field");
        assertTrue(check(CompatibilityLevel.FORWARD, rec(B_DEFAULT), rec(A)).get(0)
                .contains("in the old schema has no default value"));
    }

    @Test
    void fullNeedsBothAndNoneNeedsNothing() {
        assertTrue(check(CompatibilityLevel.FULL, rec(A, B_DEFAULT), rec(A)).isEmpty());
        assertTrue(!check(CompatibilityLevel.FULL, rec(A, B), rec(A)).isEmpty());
        assertTrue(check(CompatibilityLevel.NONE, "\"int\"", rec(A)).isEmpty());
    }

    @Test
    void transitiveLevelsCheckEveryEarlierVersionOthersOnlyTheLatest() {
        String intField = "{\"name\":\"n\",\"type\":\"int\"}";
        String longField = "{\"name\":\"n\",\"type\":\"long\"}";
        String stringField = "{\"name\":\"n\",\"type\":\"string\"}";
        // BACKWARD: the new schema reads the old ones; long reads int (promotion), string does not.
        assertTrue(check(CompatibilityLevel.BACKWARD, rec(longField), rec(intField)).isEmpty());
        // Latest-only passes where the transitive check finds the first version incompatible.
        assertTrue(check(CompatibilityLevel.BACKWARD, rec(stringField), rec(intField), rec(stringField)).isEmpty());
        List<String> transitive = check(CompatibilityLevel.BACKWARD_TRANSITIVE, rec(stringField), rec(intField),
                rec(stringField));
        assertTrue(transitive.contains("{oldSchemaVersion: 1}"), transitive.toString());
        assertTrue(!check(CompatibilityLevel.FULL_TRANSITIVE, rec(stringField), rec(intField), rec(stringField))
                .isEmpty());
        // FORWARD: the old schemas read the new one. v1 {n:int} cannot read n:long; v2 {n:long} can.
        assertTrue(check(CompatibilityLevel.FORWARD, rec(longField), rec(intField), rec(longField)).isEmpty());
        assertTrue(!check(CompatibilityLevel.FORWARD_TRANSITIVE, rec(longField), rec(intField), rec(longField))
                .isEmpty());
    }
}
