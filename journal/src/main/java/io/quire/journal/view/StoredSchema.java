package io.quire.journal.view;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.codec.CanonicalJson;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A schema as the view stores it. Its stored bytes are exactly the body of
 * {@code GET /schemas/ids/{id}}, prepared once when the command is applied, so the hottest read
 * is a point lookup and a write of those bytes. AVRO omits {@code schemaType}, as Confluent does;
 * a schema without a data contract has no {@code metadata} or {@code ruleSet}. The {@code guid}
 * is in the body of schemas stored since GUIDs exist (a view built before needs a rebuild to have it).
 */
public record StoredSchema(String schema, SchemaType schemaType, List<SchemaReference> references, Metadata metadata,
                           RuleSet ruleSet) {

    public StoredSchema {
        references = references == null ? List.of() : List.copyOf(references);
        schemaType = schemaType == null ? SchemaType.AVRO : schemaType;
    }

    public StoredSchema(String schema, SchemaType schemaType, List<SchemaReference> references) {
        this(schema, schemaType, references, null, null);
    }

    /** The same schema under another text (another format of it), its contract kept. */
    public StoredSchema withText(String text) {
        return new StoredSchema(text, schemaType, references, metadata, ruleSet);
    }

    /** The GUID of this content (a pure function of it: every node computes the same). */
    public SchemaGuid guid() {
        return SchemaGuid.of(schema, references, metadata, ruleSet);
    }

    /**
     * The stored bytes, written in one pass (the applier writes one per new schema): byte for byte
     * what {@link #encodeAsTree} gives, which {@code StoredSchemaEncodingTest} checks.
     */
    public byte[] encode() {
        return encode(guid());
    }

    /** {@link #encode()} with this content's {@link #guid()} computed by the caller, who needs it too. */
    public byte[] encode(SchemaGuid guid) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(schema.length() + 128);
        try (com.fasterxml.jackson.core.JsonGenerator g = Json.MAPPER.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("schema", schema);
            if (schemaType != SchemaType.AVRO) {
                g.writeStringField("schemaType", schemaType.name());
            }
            if (!references.isEmpty()) {
                g.writeArrayFieldStart("references");
                for (SchemaReference r : references) {
                    g.writeStartObject();
                    g.writeStringField("name", r.name());
                    g.writeStringField("subject", r.subject().name());
                    g.writeNumberField("version", r.version().number());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            if (metadata != null) {
                g.writeFieldName("metadata");
                g.writeTree(Json.MAPPER.valueToTree(metadata));
            }
            if (ruleSet != null) {
                g.writeFieldName("ruleSet");
                g.writeTree(Json.MAPPER.valueToTree(ruleSet));
            }
            g.writeStringField("guid", guid.toString());
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    /** The stored bytes built as a JSON tree first: the reference {@link #encode} is held to. */
    byte[] encodeAsTree() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("schema", schema);
        if (schemaType != SchemaType.AVRO) {
            root.put("schemaType", schemaType.name());
        }
        if (!references.isEmpty()) {
            ArrayNode refs = root.putArray("references");
            for (SchemaReference r : references) {
                refs.addObject().put("name", r.name()).put("subject", r.subject().name()).put("version", r.version().number());
            }
        }
        if (metadata != null) {
            root.set("metadata", Json.MAPPER.valueToTree(metadata));
        }
        if (ruleSet != null) {
            root.set("ruleSet", Json.MAPPER.valueToTree(ruleSet));
        }
        root.put("guid", guid().toString());
        try {
            return Json.MAPPER.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads stored bytes. Those in the form {@link #encode} writes (its fields, each of its JSON
     * type, none twice) are read in one streaming pass, the contract straight into its records;
     * anything else is read through a tree, with the same result. A registration reads the
     * latest version's stored schema for its contract: the tree's nodes were most of that cost.
     */
    public static StoredSchema decode(byte[] bytes) {
        StoredSchema fast = decodeStreaming(bytes);
        return fast != null ? fast : decodeTree(bytes);
    }

    /** The streaming pass; null when the bytes are not in the form {@link #encode} writes (the tree decides). */
    static StoredSchema decodeStreaming(byte[] bytes) {
        try (JsonParser p = Json.MAPPER.createParser(bytes)) {
            p.nextToken();
            Fields f = new Fields();
            int seen = CanonicalJson.object(p, f);
            if (seen < 0 || p.nextToken() != null || f.schema == null) {
                return null;
            }
            return new StoredSchema(f.schema, f.type, f.refs, f.metadata, f.ruleSet);
        } catch (IOException | RuntimeException e) {
            return null; // the tree pass reads it again and words the refusal
        }
    }

    /** The stored form's fields; a reference must have its name, subject and version. */
    private static final class Fields implements CanonicalJson.Fields {
        String schema;
        SchemaType type = SchemaType.AVRO;
        List<SchemaReference> refs = List.of();
        Metadata metadata;
        RuleSet ruleSet;

        @Override
        public int read(JsonParser p, String field, JsonToken t) throws IOException {
            switch (field) {
                case "schema" -> {
                    if (t != JsonToken.VALUE_STRING) {
                        return 0;
                    }
                    schema = p.getText();
                    return 1;
                }
                case "schemaType" -> {
                    if (t != JsonToken.VALUE_STRING) {
                        return 0;
                    }
                    type = SchemaType.valueOf(p.getText());
                    return 2;
                }
                case "references" -> {
                    return (refs = CanonicalJson.references(p, true)) == null ? 0 : 4;
                }
                case "metadata" -> {
                    if (t != JsonToken.START_OBJECT) {
                        return 0;
                    }
                    metadata = Json.MAPPER.readValue(p, Metadata.class);
                    return 8;
                }
                case "ruleSet" -> {
                    if (t != JsonToken.START_OBJECT) {
                        return 0;
                    }
                    ruleSet = Json.MAPPER.readValue(p, RuleSet.class);
                    return 16;
                }
                case "guid" -> {
                    return t == JsonToken.VALUE_STRING ? 32 : 0;
                }
                default -> {
                    return 0;
                }
            }
        }
    }

    /** The tree pass: any JSON of a stored schema, as views have always read it. */
    static StoredSchema decodeTree(byte[] bytes) {
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            List<SchemaReference> refs = new ArrayList<>();
            for (JsonNode r : root.path("references")) {
                refs.add(new SchemaReference(r.get("name").asText(), Subject.of(r.get("subject").asText()),
                        Version.of(r.get("version").asInt())));
            }
            SchemaType type = root.has("schemaType") ? SchemaType.valueOf(root.get("schemaType").asText()) : SchemaType.AVRO;
            Metadata metadata = root.has("metadata") ? Json.MAPPER.treeToValue(root.get("metadata"), Metadata.class) : null;
            RuleSet ruleSet = root.has("ruleSet") ? Json.MAPPER.treeToValue(root.get("ruleSet"), RuleSet.class) : null;
            return new StoredSchema(root.get("schema").asText(), type, refs, metadata, ruleSet);
        } catch (IOException | RuntimeException e) {
            throw new CorruptRecordException("cannot decode stored schema", e);
        }
    }
}
