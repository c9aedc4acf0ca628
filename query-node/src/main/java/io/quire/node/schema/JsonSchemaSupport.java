package io.quire.node.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * JSON Schema (drafts 4, 6, 7, 2019-09 and 2020-12; draft 7 when {@code $schema} is absent, as
 * Confluent assumes). A schema document is checked against its draft's meta-schema with the
 * networknt validator; the canonical form is the compact JSON text with keys in document order
 * (what Confluent stores), the normalised form sorts keys at every level. Compatibility follows
 * Confluent's JSON Schema rules, in {@link JsonSchemaCompatibility}.
 */
public final class JsonSchemaSupport implements SchemaSupport<JsonSchemaSupport.Document> {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    /** A parsed document and the documents its references name, by reference name. */
    public record Document(JsonNode root, Map<String, JsonNode> references) {
    }

    private final Map<SpecificationVersion, Schema> metaSchemas = new EnumMap<>(SpecificationVersion.class);

    public JsonSchemaSupport() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7);
        for (SpecificationVersion v : SpecificationVersion.values()) {
            metaSchemas.put(v, registry.getSchema(SchemaLocation.of(v.getDialectId())));
        }
    }

    @Override
    public SchemaType type() {
        return SchemaType.JSON;
    }

    @Override
    public Class<Document> form() {
        return Document.class;
    }

    @Override
    public ParsedSchema<Document> parse(String text, List<SchemaReference> references, Map<String, String> resolvedReferences) {
        JsonNode root = document(text);
        Map<String, JsonNode> refs = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : resolvedReferences.entrySet()) {
            refs.put(e.getKey(), document(e.getValue()));
        }
        String canonical = root.toString();
        return new ParsedSchema<>(SchemaType.JSON, canonical, references,
                Fingerprints.of(SchemaType.JSON, canonical, references), new Document(root, refs));
    }

    /** The same schema with object keys sorted at every level: equivalent texts get one form. */
    @Override
    public String normalize(String canonical) {
        try {
            return JSON.writeValueAsString(sortKeys(JSON.readTree(canonical)));
        } catch (JsonProcessingException e) {
            throw new InvalidSchemaException("Invalid schema: " + e.getOriginalMessage());
        }
    }

    private static JsonNode sortKeys(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                sorted.put(e.getKey(), sortKeys(e.getValue()));
            }
            ObjectNode out = JSON.createObjectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            var out = JSON.createArrayNode();
            node.forEach(n -> out.add(sortKeys(n)));
            return out;
        }
        return node;
    }

    private JsonNode document(String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidSchemaException("Invalid schema " + AvroSupport.abbreviate(text)
                    + ", details: " + e.getOriginalMessage());
        } catch (StackOverflowError e) {
            throw new InvalidSchemaException("Invalid schema: nested too deeply");
        }
        if (root == null || !(root.isObject() || root.isBoolean())) {
            throw new InvalidSchemaException(
                    "Invalid schema: a JSON Schema is an object or a boolean");
        }
        SpecificationVersion version = SpecificationVersion.DRAFT_7;
        JsonNode dialect = root.path("$schema");
        if (dialect.isTextual()) {
            version = draft(dialect.asText()).orElseThrow(() -> new InvalidSchemaException(
                    "Invalid schema: unknown $schema " + dialect.asText()));
        }
        List<Error> errors;
        try {
            errors = metaSchemas.get(version).validate(root);
        } catch (RuntimeException | StackOverflowError e) {
            throw new InvalidSchemaException("Invalid schema: " + e.getMessage());
        }
        if (!errors.isEmpty()) {
            StringBuilder why = new StringBuilder();
            for (int i = 0; i < Math.min(3, errors.size()); i++) {
                why.append(i == 0 ? "" : "; ").append(errors.get(i).getMessage());
            }
            throw new InvalidSchemaException("Invalid schema " + AvroSupport.abbreviate(text)
                    + ", details: " + why);
        }
        return root;
    }

    /** The draft a {@code $schema} names, with or without the trailing '#', over http or https. */
    static Optional<SpecificationVersion> draft(String id) {
        String bare = id.strip();
        bare = bare.endsWith("#") ? bare.substring(0, bare.length() - 1) : bare;
        bare = bare.replaceFirst("^https?://", "");
        for (SpecificationVersion v : SpecificationVersion.values()) {
            String known = v.getDialectId();
            known = known.endsWith("#") ? known.substring(0, known.length() - 1) : known;
            if (known.replaceFirst("^https?://", "").equals(bare)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    @Override
    public Set<String> topLevelFields(ParsedSchema<Document> schema) {
        Set<String> out = new LinkedHashSet<>();
        JsonNode properties = schema.parsed().root().get("properties");
        if (properties != null && properties.isObject()) {
            properties.fieldNames().forEachRemaining(out::add);
        }
        return out;
    }

    @Override
    public List<String> readErrors(ParsedSchema<Document> reader, ParsedSchema<Document> writer, String readerRole, String writerRole) {
        return new JsonSchemaCompatibility(reader.parsed(), writer.parsed(), readerRole,
                writerRole).check();
    }
}
