package io.quire.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing JSON Schema documents of every draft, their canonical and normalised texts. */
class JsonSchemaSupportTest {

    final JsonSchemaSupport json = new JsonSchemaSupport();

    ParsedSchema<JsonSchemaSupport.Document> parse(String text) {
        return json.parse(text, List.of(), Map.of());
    }

    @Test
    void everyDraftIsRecognisedWithOrWithoutTheTrailingHash() {
        assertEquals(SpecificationVersion.DRAFT_4, JsonSchemaSupport.draft("http://json-schema.org/draft-04/schema#").orElseThrow());
        assertEquals(SpecificationVersion.DRAFT_6, JsonSchemaSupport.draft("http://json-schema.org/draft-06/schema").orElseThrow());
        assertEquals(SpecificationVersion.DRAFT_7, JsonSchemaSupport.draft("https://json-schema.org/draft-07/schema#").orElseThrow());
        assertEquals(SpecificationVersion.DRAFT_2019_09,
                JsonSchemaSupport.draft("https://json-schema.org/draft/2019-09/schema").orElseThrow());
        assertEquals(SpecificationVersion.DRAFT_2020_12,
                JsonSchemaSupport.draft("https://json-schema.org/draft/2020-12/schema#").orElseThrow());
        for (String dialect : List.of("http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
                "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft/2019-09/schema",
                "https://json-schema.org/draft/2020-12/schema")) {
            parse("{\"$schema\":\"" + dialect + "\",\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}");
        }
        assertThrows(InvalidSchemaException.class, () -> parse("{\"$schema\":\"https://example.com/mine\",\"type\":\"object\"}"));
    }

    @Test
    void documentsTheMetaSchemaRefusesAreInvalid() {
        assertThrows(InvalidSchemaException.class, () -> parse("{\"type\":\"objekt\"}"));
        assertThrows(InvalidSchemaException.class, () -> parse("{\"minLength\":-1}"));
        assertThrows(InvalidSchemaException.class, () -> parse("\"a string\""));
        assertThrows(InvalidSchemaException.class, () -> parse("{\"type\":"));
        parse("true");
    }

    @Test
    void canonicalKeepsOrderAndNormalisedSortsIt() {
        var a = parse("{ \"type\": \"object\",  \"properties\": {\"b\": {}, \"a\": {}} }");
        var b = parse("{\"properties\":{\"a\":{},\"b\":{}},\"type\":\"object\"}");
        assertEquals("{\"type\":\"object\",\"properties\":{\"b\":{},\"a\":{}}}", a.canonical());
        assertNotEquals(a.fingerprint(), b.fingerprint());
        assertEquals(json.normalize(a.canonical()), json.normalize(b.canonical()));
        assertEquals("{\"properties\":{\"a\":{},\"b\":{}},\"type\":\"object\"}", json.normalize(a.canonical()));
    }

    /** Definitions d0..d{levels-1}, each with two properties referring to the one below. */
    static String diamond(int levels, String bottomType) {
        StringBuilder defs = new StringBuilder("\"d0\":{\"type\":\"" + bottomType + "\"}");
        for (int k = 1; k < levels; k++) {
            defs.append(",\"d").append(k).append("\":{\"type\":\"object\",\"properties\":{")
                    .append("\"x\":{\"$ref\":\"#/definitions/d").append(k - 1).append("\"},")
                    .append("\"y\":{\"$ref\":\"#/definitions/d").append(k - 1).append("\"}}}");
        }
        return "{\"definitions\":{" + defs + "},\"$ref\":\"#/definitions/d" + (levels - 1) + "\"}";
    }

    @Test
    void sharedRefsAreComparedOncePerPair() {
        // 2^30 paths lead to d0; each pair of definitions is compared once, within the budget.
        var older = parse(diamond(30, "integer"));
        var widened = parse(diamond(30, "number"));
        var narrowed = parse(diamond(30, "string"));
        assertEquals(List.of(), json.readErrors(widened, older, "new", "old"));
        assertNotEquals(List.of(), json.readErrors(narrowed, older, "new", "old"));
    }

    @Test
    void aCheckBeyondTheComparisonBudgetIsAnInvalidSchema() {
        StringBuilder branches = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            branches.append(i == 0 ? "" : ",").append("{\"type\":\"object\",\"properties\":{\"p").append(i)
                    .append("\":{\"type\":\"string\"}},\"required\":[\"p").append(i).append("\"],\"additionalProperties\":false}");
        }
        var wide = parse("{\"oneOf\":[" + branches + "]}");
        var other = parse("{\"oneOf\":[" + branches.toString().replace("string", "integer") + "]}");
        InvalidSchemaException e = assertThrows(InvalidSchemaException.class,
                () -> json.readErrors(other, wide, "new", "old"));
        assertTrue(e.getMessage().contains("too complex"), e.getMessage());
    }
}
