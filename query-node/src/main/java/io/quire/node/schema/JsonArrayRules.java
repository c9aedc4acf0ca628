package io.quire.node.schema;

import com.fasterxml.jackson.databind.JsonNode;

/** Arrays: items (single or tuple, prefixItems), additionalItems, item counts, uniqueItems, contains. */
final class JsonArrayRules {

    private JsonArrayRules() {
    }

    static void compareArrays(JsonSchemaCompatibility ctx, JsonNode r, JsonNode w, String path, int depth) {
        JsonNode rItems = r.get("items");
        JsonNode wItems = w.get("items");
        JsonNode rTuple = r.has("prefixItems") ? r.get("prefixItems") : rItems != null && rItems.isArray() ? rItems : null;
        JsonNode wTuple = w.has("prefixItems") ? w.get("prefixItems") : wItems != null && wItems.isArray() ? wItems : null;
        JsonNode rRest = rTuple == rItems ? r.get("additionalItems") : rItems;
        JsonNode wRest = wTuple == wItems ? w.get("additionalItems") : wItems;
        int rLen = rTuple == null ? 0 : rTuple.size();
        int wLen = wTuple == null ? 0 : wTuple.size();
        for (int i = 0; i < Math.max(rLen, wLen); i++) {
            JsonNode ri = i < rLen ? rTuple.get(i) : rRest;
            JsonNode wi = i < wLen ? wTuple.get(i) : wRest;
            String at = path + "/items/" + i;
            if (ri == null) {
                continue;
            }
            if (wi == null) {
                if (!JsonSchemaCompatibility.acceptsAll(JsonSchemaCompatibility.resolve(ri, ctx.readerDoc))) {
                    ctx.error("ITEMS_NARROWED", at, "items were constrained where anything was allowed");
                }
            } else {
                ctx.compare(ri, wi, at, depth + 1);
            }
        }
        if (rRest != null && !JsonSchemaCompatibility.acceptsAll(JsonSchemaCompatibility.resolve(rRest, ctx.readerDoc))) {
            if (wRest == null) {
                ctx.error(JsonSchemaCompatibility.isFalse(JsonSchemaCompatibility.resolve(rRest, ctx.readerDoc)) ? "ADDITIONAL_ITEMS_REMOVED" : "ITEMS_NARROWED", path,
                        "items were constrained where anything was allowed");
            } else if (wLen <= rLen) {
                ctx.compare(rRest, wRest, path + "/items", depth + 1);
            }
        }
        JsonScalarRules.upper(ctx, r, w, "maxItems", path, "MAX_ITEMS");
        JsonScalarRules.lower(ctx, r, w, "minItems", path, "MIN_ITEMS");
        if (r.path("uniqueItems").asBoolean(false) && !w.path("uniqueItems").asBoolean(false)) {
            ctx.error("UNIQUE_ITEMS_ADDED", path, "uniqueItems was added");
        }
        if (r.has("contains")) {
            if (!w.has("contains")) {
                ctx.error("CONTAINS_ADDED", path, "contains was added");
            } else {
                ctx.compare(r.get("contains"), w.get("contains"), path + "/contains", depth + 1);
            }
        }
    }
}
