package io.quire.journal.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
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
 * is a point lookup and a write of those bytes. AVRO omits {@code schemaType}, as Confluent does.
 */
public record StoredSchema(String schema, SchemaType schemaType, List<SchemaReference> references) {

    public StoredSchema {
        references = references == null ? List.of() : List.copyOf(references);
        schemaType = schemaType == null ? SchemaType.AVRO : schemaType;
    }

    public byte[] encode() {
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
        try {
            return Json.MAPPER.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static StoredSchema decode(byte[] bytes) {
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            List<SchemaReference> refs = new ArrayList<>();
            for (JsonNode r : root.path("references")) {
                refs.add(new SchemaReference(r.get("name").asText(), Subject.of(r.get("subject").asText()),
                        Version.of(r.get("version").asInt())));
            }
            SchemaType type = root.has("schemaType") ? SchemaType.valueOf(root.get("schemaType").asText()) : SchemaType.AVRO;
            return new StoredSchema(root.get("schema").asText(), type, refs);
        } catch (IOException | RuntimeException e) {
            throw new CorruptRecordException("cannot decode stored schema", e);
        }
    }
}
