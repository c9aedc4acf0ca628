package io.quire.node.lint;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The Avro rules, over the schema's own JSON: the named types it defines (a type it names by a
 * string is a reference or defined elsewhere, and is not judged here), their fields and unions.
 */
final class AvroLint {

    private AvroLint() {
    }

    static void check(JsonNode root, Lint.Found found) {
        type(root, null, "", found);
    }

    /** A type in {@code namespace} (the enclosing one), at {@code path}. */
    private static void type(JsonNode t, String namespace, String path, Lint.Found found) {
        if (t == null) {
            return;
        }
        if (t.isArray()) {
            for (JsonNode branch : t) {
                type(branch, namespace, path, found);
            }
            return;
        }
        if (!t.isObject()) {
            return; // a primitive or a name
        }
        String kind = t.path("type").asText("");
        switch (kind) {
            case "record", "error", "enum", "fixed" -> named(t, kind, namespace, path, found);
            case "array" -> type(t.get("items"), namespace, path + "[]", found);
            case "map" -> type(t.get("values"), namespace, path + "{}", found);
            default -> type(t.get("type"), namespace, path, found); // {"type": "string", "logicalType": …}
        }
    }

    private static void named(JsonNode t, String kind, String enclosing, String path, Lint.Found found) {
        String name = t.path("name").asText("");
        String namespace = t.hasNonNull("namespace") ? t.get("namespace").asText() : enclosing;
        int dot = name.lastIndexOf('.');
        if (dot >= 0) { // a full name carries its namespace
            namespace = name.substring(0, dot);
            name = name.substring(dot + 1);
        }
        String here = path.isEmpty() ? name : path + "." + name;
        if (namespace == null || namespace.isEmpty()) {
            found.add(LintRule.AVRO_NAMESPACE_DEFINED, here, kind + " " + name + " has no namespace");
        }
        if (!Lint.matches(Lint.PASCAL, name)) {
            found.add(LintRule.AVRO_NAME_PASCAL_CASE, here, kind + " " + name + " is not PascalCase");
        }
        if (kind.equals("enum")) {
            for (JsonNode s : t.path("symbols")) {
                if (!Lint.matches(Lint.UPPER_SNAKE, s.asText())) {
                    found.add(LintRule.AVRO_ENUM_SYMBOL_UPPER_SNAKE_CASE, here + "." + s.asText(),
                            "symbol " + s.asText() + " is not UPPER_SNAKE_CASE");
                }
            }
            return;
        }
        if (!kind.equals("record") && !kind.equals("error")) {
            return;
        }
        if (Lint.blank(t.path("doc").asText(null))) {
            found.add(LintRule.AVRO_RECORD_DOC, here, "record " + name + " has no doc");
        }
        for (JsonNode f : t.path("fields")) {
            field(f, name, namespace, here, found);
        }
    }

    private static void field(JsonNode f, String record, String namespace, String recordPath, Lint.Found found) {
        String name = f.path("name").asText("");
        String here = recordPath + "." + name;
        if (!Lint.matches(Lint.LOWER_CAMEL, name)) {
            found.add(LintRule.AVRO_FIELD_LOWER_CAMEL_CASE, here, "field " + name + " is not lowerCamelCase");
        }
        if (!Lint.matches(Lint.LOWER_SNAKE, name)) {
            found.add(LintRule.AVRO_FIELD_LOWER_SNAKE_CASE, here, "field " + name + " is not lower_snake_case");
        }
        if (Lint.blank(f.path("doc").asText(null))) {
            found.add(LintRule.AVRO_FIELD_DOC, here, "field " + name + " has no doc");
        }
        JsonNode type = f.get("type");
        if (type != null && type.isArray()) {
            union(type, f, name, here, found);
        }
        found.pii(record, name, here, tagged(f.get("confluent:tags"), found.settings.piiTag()));
        type(type, namespace, here, found);
    }

    private static void union(JsonNode branches, JsonNode field, String name, String here, Lint.Found found) {
        int nulls = 0;
        for (JsonNode b : branches) {
            if (b.isTextual() && b.asText().equals("null")) {
                nulls++;
            }
        }
        if (nulls != 1 || branches.size() != 2) {
            found.add(LintRule.AVRO_UNION_NULLABLE_ONLY, here, "field " + name + " is a union of " + branches.size()
                    + " types; only [\"null\", T] is allowed");
            return;
        }
        JsonNode first = branches.get(0);
        boolean nullFirst = first.isTextual() && first.asText().equals("null");
        if (!nullFirst || !field.has("default") || !field.get("default").isNull()) {
            found.add(LintRule.AVRO_UNION_NULL_FIRST, here, "field " + name
                    + " is nullable: null comes first and the default is null");
        }
    }

    /** Whether {@code confluent:tags} holds the tag. */
    static boolean tagged(JsonNode tags, String tag) {
        if (tags == null) {
            return false;
        }
        if (tags.isTextual()) {
            return tags.asText().equals(tag);
        }
        for (JsonNode t : tags) {
            if (t.asText().equals(tag)) {
                return true;
            }
        }
        return false;
    }
}
