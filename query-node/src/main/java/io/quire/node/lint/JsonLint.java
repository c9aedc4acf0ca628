package io.quire.node.lint;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/** The JSON Schema rules, over the document: its objects, their properties, and the schemas under them. */
final class JsonLint {

    private JsonLint() {
    }

    static void check(JsonNode root, Lint.Found found) {
        if (!root.isObject()) {
            return; // true / false
        }
        if (!root.has("$schema")) {
            found.add(LintRule.JSON_DRAFT_DECLARED, "#", "the document does not declare $schema");
        }
        if (Lint.blank(root.path("description").asText(null))) {
            found.add(LintRule.JSON_DESCRIPTION, "#", "the document has no description");
        }
        schema(root, "#", null, found);
    }

    private static void schema(JsonNode s, String path, String owner, Lint.Found found) {
        if (s == null || !s.isObject()) {
            return;
        }
        JsonNode props = s.get("properties");
        boolean object = "object".equals(s.path("type").asText(null)) || (s.path("type").isArray()
                && s.path("type").toString().contains("\"object\"")) || (props != null && props.isObject());
        if (object && !s.has("additionalProperties") && !s.has("unevaluatedProperties")) {
            found.add(LintRule.JSON_ADDITIONAL_PROPERTIES_STATED, path, "the object does not state additionalProperties");
        }
        String title = s.path("title").asText(owner);
        if (props != null && props.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = props.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String name = e.getKey();
                String here = path + "/properties/" + name;
                if (!Lint.matches(Lint.LOWER_CAMEL, name)) {
                    found.add(LintRule.JSON_PROPERTY_LOWER_CAMEL_CASE, here, "property " + name
                            + " is not lowerCamelCase");
                }
                if (!Lint.matches(Lint.LOWER_SNAKE, name)) {
                    found.add(LintRule.JSON_PROPERTY_LOWER_SNAKE_CASE, here, "property " + name
                            + " is not lower_snake_case");
                }
                JsonNode p = e.getValue();
                if (p.isObject() && Lint.blank(p.path("description").asText(null))) {
                    found.add(LintRule.JSON_DESCRIPTION, here, "property " + name + " has no description");
                }
                found.pii(title, name, here, p.isObject() && AvroLint.tagged(p.get("confluent:tags"),
                        found.settings.piiTag()));
                schema(p, here, name, found);
            }
        }
        for (String key : new String[] {"items", "additionalProperties", "not", "if", "then", "else"}) {
            schema(s.get(key), path + "/" + key, owner, found);
        }
        for (String key : new String[] {"allOf", "anyOf", "oneOf", "prefixItems"}) {
            JsonNode list = s.get(key);
            if (list != null && list.isArray()) {
                for (int i = 0; i < list.size(); i++) {
                    schema(list.get(i), path + "/" + key + "/" + i, owner, found);
                }
            }
        }
        for (String key : new String[] {"definitions", "$defs"}) {
            JsonNode defs = s.get(key);
            if (defs != null && defs.isObject()) {
                Iterator<Map.Entry<String, JsonNode>> it = defs.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    schema(e.getValue(), path + "/" + key + "/" + e.getKey(), e.getKey(), found);
                }
            }
        }
    }
}
