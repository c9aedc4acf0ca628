package io.quire.node.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** Enums and consts, numeric bounds and multipleOf, and the string and size bounds (shared upper/lower rules). */
final class JsonScalarRules {

    private JsonScalarRules() {
    }

    static void compareEnum(JsonSchemaCompatibility ctx, JsonNode r, JsonNode w, String path) {
        List<JsonNode> rValues = values(r);
        if (rValues == null) {
            return;
        }
        List<JsonNode> wValues = values(w);
        if (wValues == null) {
            ctx.error("ENUM_ARRAY_NARROWED", path, "an enum (or const) was added");
            return;
        }
        for (JsonNode v : wValues) {
            if (!rValues.contains(v)) {
                ctx.error("ENUM_ARRAY_NARROWED", path, "enum value " + v + " is no longer accepted");
            }
        }
    }

    static List<JsonNode> values(JsonNode n) {
        if (n.has("const")) {
            return List.of(n.get("const"));
        }
        if (n.has("enum") && n.get("enum").isArray()) {
            List<JsonNode> out = new ArrayList<>();
            n.get("enum").forEach(out::add);
            return out;
        }
        return null;
    }

    static void compareNumbers(JsonSchemaCompatibility ctx, JsonNode r, JsonNode w, String path) {
        Bound rMax = bound(r, "maximum", "exclusiveMaximum");
        Bound wMax = bound(w, "maximum", "exclusiveMaximum");
        if (rMax != null) {
            int c = wMax == null ? 1 : wMax.value.compareTo(rMax.value);
            if (wMax == null) {
                ctx.error("MAXIMUM_ADDED", path, "a maximum was added");
            } else if (c > 0 || c == 0 && rMax.exclusive && !wMax.exclusive) {
                ctx.error("MAXIMUM_DECREASED", path, "the maximum decreased");
            }
        }
        Bound rMin = bound(r, "minimum", "exclusiveMinimum");
        Bound wMin = bound(w, "minimum", "exclusiveMinimum");
        if (rMin != null) {
            int c = wMin == null ? -1 : wMin.value.compareTo(rMin.value);
            if (wMin == null) {
                ctx.error("MINIMUM_ADDED", path, "a minimum was added");
            } else if (c < 0 || c == 0 && rMin.exclusive && !wMin.exclusive) {
                ctx.error("MINIMUM_INCREASED", path, "the minimum increased");
            }
        }
        BigDecimal rMul = decimal(r.get("multipleOf"));
        if (rMul != null && rMul.signum() > 0) {
            BigDecimal wMul = decimal(w.get("multipleOf"));
            if (wMul == null) {
                ctx.error("MULTIPLE_OF_ADDED", path, "multipleOf was added");
            } else if (wMul.remainder(rMul).signum() != 0) {
                ctx.error("MULTIPLE_OF_CHANGED", path, "multipleOf " + rMul + " does not divide " + wMul);
            }
        }
    }

    record Bound(BigDecimal value, boolean exclusive) {
    }

    /** A numeric bound: draft 6+ exclusive keywords are numbers, draft 4's are flags on the inclusive one. */
    static Bound bound(JsonNode n, String inclusive, String exclusive) {
        BigDecimal inc = decimal(n.get(inclusive));
        JsonNode ex = n.get(exclusive);
        if (ex != null && ex.isNumber()) {
            BigDecimal exv = ex.decimalValue();
            if (inc == null || (inclusive.equals("maximum") ? exv.compareTo(inc) <= 0 : exv.compareTo(inc) >= 0)) {
                return new Bound(exv, true);
            }
        }
        if (inc == null) {
            return null;
        }
        return new Bound(inc, ex != null && ex.isBoolean() && ex.asBoolean());
    }

    static BigDecimal decimal(JsonNode n) {
        return n != null && n.isNumber() ? n.decimalValue() : null;
    }

    static void upper(JsonSchemaCompatibility ctx, JsonNode r, JsonNode w, String keyword, String path, String name) {
        if (!r.has(keyword)) {
            return;
        }
        if (!w.has(keyword)) {
            ctx.error(name + "_ADDED", path, keyword + " was added");
        } else if (w.get(keyword).asLong() > r.get(keyword).asLong()) {
            ctx.error(name + "_DECREASED", path, keyword + " decreased");
        }
    }

    static void lower(JsonSchemaCompatibility ctx, JsonNode r, JsonNode w, String keyword, String path, String name) {
        if (!r.has(keyword) || r.get(keyword).asLong() == 0) {
            return;
        }
        if (!w.has(keyword)) {
            ctx.error(name + "_ADDED", path, keyword + " was added");
        } else if (w.get(keyword).asLong() < r.get(keyword).asLong()) {
            ctx.error(name + "_INCREASED", path, keyword + " increased");
        }
    }
}
