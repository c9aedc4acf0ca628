package io.quire.node.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** Objects: properties, content models (additionalProperties, patternProperties), required, property counts. */
final class JsonObjectRules {

    private JsonObjectRules() {
    }

    static void compareObjects(JsonSchemaCompatibility ctx, JsonNode r, JsonNode w, String path, int depth) {
        JsonNode rProps = r.path("properties");
        JsonNode wProps = w.path("properties");
        JsonNode rExtra = r.has("additionalProperties") ? r.get("additionalProperties") : null;
        JsonNode wExtra = w.has("additionalProperties") ? w.get("additionalProperties") : null;
        Iterator<Map.Entry<String, JsonNode>> it = rProps.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> p = it.next();
            String at = path + "/properties/" + p.getKey();
            if (wProps.has(p.getKey())) {
                ctx.compare(p.getValue(), wProps.get(p.getKey()), at, depth + 1);
            } else if (wExtra == null || !JsonSchemaCompatibility.isFalse(JsonSchemaCompatibility.resolve(wExtra, ctx.writerDoc))) {
                // The writer's content model was open: its documents may carry this property with any value.
                boolean safe = wExtra == null ? JsonSchemaCompatibility.acceptsAll(JsonSchemaCompatibility.resolve(p.getValue(), ctx.readerDoc))
                        : ctx.trial(p.getValue(), wExtra, at, depth + 1).isEmpty();
                if (!safe) {
                    ctx.error("PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", at,
                            "property '" + p.getKey() + "' was added to an open content model");
                }
            }
        }
        it = wProps.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> p = it.next();
            if (rProps.has(p.getKey())) {
                continue;
            }
            String at = path + "/properties/" + p.getKey();
            if (rExtra != null && JsonSchemaCompatibility.isFalse(JsonSchemaCompatibility.resolve(rExtra, ctx.readerDoc))) {
                ctx.error("PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL", at,
                        "property '" + p.getKey() + "' was removed from a closed content model");
            } else if (rExtra != null) {
                ctx.compare(rExtra, p.getValue(), at, depth + 1);
            }
        }
        if (rExtra != null && !JsonSchemaCompatibility.acceptsAll(JsonSchemaCompatibility.resolve(rExtra, ctx.readerDoc))) {
            if (wExtra == null || JsonSchemaCompatibility.acceptsAll(JsonSchemaCompatibility.resolve(wExtra, ctx.writerDoc))) {
                ctx.error(JsonSchemaCompatibility.isFalse(JsonSchemaCompatibility.resolve(rExtra, ctx.readerDoc)) ? "ADDITIONAL_PROPERTIES_REMOVED" : "ADDITIONAL_PROPERTIES_NARROWED",
                        path, "the content model was closed or narrowed");
            } else {
                ctx.compare(rExtra, wExtra, path + "/additionalProperties", depth + 1);
            }
        }
        // As Confluent: a required name is judged only for a property the reader declares; one the
        // writer declared too became required, one added to an open writer model is judged by
        // the content model above, one added to a closed or partly open model must have a default.
        Set<String> wRequired = JsonSchemaCompatibility.strings(w.path("required"));
        for (String req : JsonSchemaCompatibility.strings(r.path("required"))) {
            if (wRequired.contains(req) || !rProps.has(req)) {
                continue;
            }
            boolean declaredBefore = wProps.has(req);
            if (!declaredBefore && ctx.openContentModel(w)) {
                continue;
            }
            if (!JsonSchemaCompatibility.resolve(rProps.get(req), ctx.readerDoc).has("default")) {
                ctx.error(declaredBefore ? "REQUIRED_ATTRIBUTE_ADDED" : "REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL",
                        path, "property '" + req + "' became required");
            }
        }
        JsonScalarRules.upper(ctx, r, w, "maxProperties", path, "MAX_PROPERTIES");
        JsonScalarRules.lower(ctx, r, w, "minProperties", path, "MIN_PROPERTIES");
    }
}
