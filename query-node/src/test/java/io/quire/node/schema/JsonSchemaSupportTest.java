package io.quire.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing JSON Schema documents of every draft, their canonical and normalised texts. */
class JsonSchemaSupportTest {

    final JsonSchemaSupport json = new JsonSchemaSupport();

    ParsedSchema parse(String text) {
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
        ParsedSchema a = parse("{ \"type\": \"object\",  \"properties\": {\"b\": {}, \"a\": {}} }");
        ParsedSchema b = parse("{\"properties\":{\"a\":{},\"b\":{}},\"type\":\"object\"}");
        assertEquals("{\"type\":\"object\",\"properties\":{\"b\":{},\"a\":{}}}", a.canonical());
        assertNotEquals(a.fingerprint(), b.fingerprint());
        assertEquals(json.normalize(a.canonical()), json.normalize(b.canonical()));
        assertEquals("{\"properties\":{\"a\":{},\"b\":{}},\"type\":\"object\"}", json.normalize(a.canonical()));
    }
}
