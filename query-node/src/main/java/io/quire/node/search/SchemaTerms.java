package io.quire.node.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.SearchTerm.Kind;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.TermPaths;
import io.quire.node.schema.JsonSchemaSupport;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.ProtobufSupport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A schema's search terms, read from the form its own library parsed (Avro's document as Apache
 * Avro accepted it, the JSON Schema document, Wire's Protobuf file): the named types it defines
 * and their namespaces, every field with its path, the words of its docs, its tags. A type it
 * only names (defined in a referenced schema) is not its own: the referenced schema has the terms.
 * Protobuf's part is in {@link ProtoTerms}. The index files the terms' keys; where a term is
 * ({@link #ofStored}) is read again from the stored schema when a search answers it.
 */
public final class SchemaTerms {

    /** The most doc words one schema contributes (a schema that is mostly prose stays indexable). */
    static final int MAX_DOC_WORDS = 500;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final List<SearchTerm> terms = new ArrayList<>();
    private final Set<String> docWords = new LinkedHashSet<>();

    private SchemaTerms() {
    }

    /** The keys of a parsed schema's terms, encoded for the command; empty for a schema with none. */
    public static List<String> of(ParsedSchema<?> parsed) {
        SchemaTerms t = new SchemaTerms();
        switch (parsed.type()) {
            case AVRO -> t.avroType(document(parsed.canonical()), null);
            case JSON -> t.jsonSchema(((JsonSchemaSupport.Document) parsed.parsed()).root(), "", true);
            case PROTOBUF -> ProtoTerms.file(((ProtobufSupport.Document) parsed.parsed()).file(), t);
            default -> {
            }
        }
        return SearchTerm.encodeAll(t.terms);
    }

    /**
     * Every term of a stored schema with where it is, its contract's metadata included: the same
     * terms as {@link #of} gave when it was registered, read again from the stored text.
     */
    public static List<SearchTerm> ofStored(StoredSchema schema) {
        SchemaTerms t = new SchemaTerms();
        switch (schema.schemaType()) {
            case AVRO -> t.avroType(document(schema.schema()), null);
            case JSON -> t.jsonSchema(document(schema.schema()), "", true);
            case PROTOBUF -> {
                try {
                    ProtoTerms.file(ProtoParser.Companion.parse(Location.get("stored.proto"), schema.schema()), t);
                } catch (RuntimeException e) {
                    // stored text Wire parsed once: left with no places rather than failing a search
                }
            }
            default -> {
            }
        }
        Metadata metadata = schema.metadata();
        if (metadata != null) {
            metadata.tags().forEach((path, tags) -> tags.forEach(tag -> t.add(Kind.TAG, tag, path)));
            metadata.properties().forEach((key, value) -> {
                t.add(Kind.PROPERTY, key, key + "=" + value);
                t.add(Kind.PROPERTY, key + "=" + value, key);
            });
        }
        return t.terms;
    }

    /** Where a stored schema has a term of a kind and key (the index's {@link TermPaths}). */
    public static final TermPaths PATHS = (schema, kind, key) -> ofStored(schema).stream()
            .filter(term -> term.kind() == kind && term.key().equals(key)).toList();

    void add(Kind kind, String term, String path) {
        if (term != null && !term.isBlank()) {
            terms.add(new SearchTerm(kind, term, path));
        }
    }

    /** The words of a doc, comment or description, each at most once per path: three letters or more, no stop word. */
    void doc(String text, String path) {
        if (text == null) {
            return;
        }
        for (String word : text.split("[^\\p{L}\\p{N}_]+")) {
            String key = word.toLowerCase(Locale.ROOT);
            if (word.length() >= 3 && !STOP_WORDS.contains(key) && docWords.size() < MAX_DOC_WORDS
                    && docWords.add(key + '\0' + path)) {
                add(Kind.DOC, word, path);
            }
        }
    }

    /** English words too common in docs to find anything by. */
    static final Set<String> STOP_WORDS = Set.of("the", "and", "for", "are", "but", "not", "you", "all", "any", "can",
            "has", "her", "was", "one", "our", "out", "this", "that", "with", "from", "its", "into", "than", "then",
            "them", "they", "there", "their", "these", "those", "which", "will", "would", "when", "where", "what",
            "who", "how", "also", "such", "each", "other", "been", "being", "have", "had", "may", "must", "should");

    /** Tags given as a string or an array of strings. */
    void tags(JsonNode tags, String path) {
        if (tags == null) {
            return;
        }
        if (tags.isTextual()) {
            add(Kind.TAG, tags.asText(), path);
        }
        for (JsonNode t : tags) {
            if (t.isTextual()) {
                add(Kind.TAG, t.asText(), path);
            }
        }
    }

    private static JsonNode document(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JSON.nullNode(); // parsed already: a bare type name
        }
    }

    // ---- Avro: the schema's own JSON, as the lint reads it

    private void avroType(JsonNode t, String namespace) {
        if (t == null) {
            return;
        }
        if (t.isArray()) {
            for (JsonNode branch : t) {
                avroType(branch, namespace);
            }
            return;
        }
        if (!t.isObject()) {
            return;
        }
        switch (t.path("type").asText("")) {
            case "record", "error", "enum", "fixed" -> avroNamed(t, namespace);
            case "array" -> avroType(t.get("items"), namespace);
            case "map" -> avroType(t.get("values"), namespace);
            default -> avroType(t.get("type"), namespace);
        }
    }

    private void avroNamed(JsonNode t, String enclosing) {
        String name = t.path("name").asText("");
        String namespace = t.hasNonNull("namespace") ? t.get("namespace").asText() : enclosing;
        int dot = name.lastIndexOf('.');
        if (dot >= 0) {
            namespace = name.substring(0, dot);
            name = name.substring(dot + 1);
        }
        String full = namespace == null || namespace.isEmpty() ? name : namespace + "." + name;
        add(Kind.RECORD, name, full);
        if (namespace != null && !namespace.isEmpty()) {
            add(Kind.NAMESPACE, namespace, full);
        }
        doc(t.path("doc").asText(null), full);
        tags(t.get("confluent:tags"), full);
        for (JsonNode symbol : t.path("symbols")) {
            add(Kind.FIELD, symbol.asText(), full + "." + symbol.asText());
        }
        for (JsonNode f : t.path("fields")) {
            String field = f.path("name").asText("");
            String here = full + "." + field;
            add(Kind.FIELD, field, here);
            doc(f.path("doc").asText(null), here);
            tags(f.get("confluent:tags"), here);
            avroType(f.get("type"), namespace);
        }
    }

    // ---- JSON Schema: the document, its properties and the schemas under them

    private void jsonSchema(JsonNode s, String path, boolean root) {
        if (s == null || !s.isObject()) {
            return;
        }
        String title = s.path("title").asText(null);
        if (title != null && !title.isBlank()) {
            add(Kind.RECORD, title, path.isEmpty() ? title : path);
            doc(title, path.isEmpty() ? title : path);
            if (root) {
                path = title;
            }
        }
        doc(s.path("description").asText(null), path.isEmpty() ? "#" : path);
        tags(s.get("confluent:tags"), path.isEmpty() ? "#" : path);
        JsonNode props = s.get("properties");
        if (props != null && props.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = props.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String here = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                add(Kind.FIELD, e.getKey(), here);
                jsonSchema(e.getValue(), here, false);
            }
        }
        for (String key : new String[] {"items", "additionalProperties", "not", "if", "then", "else"}) {
            jsonSchema(s.get(key), path, false);
        }
        for (String key : new String[] {"allOf", "anyOf", "oneOf", "prefixItems"}) {
            for (JsonNode branch : s.path(key)) {
                jsonSchema(branch, path, false);
            }
        }
        for (String key : new String[] {"definitions", "$defs"}) {
            JsonNode defs = s.get(key);
            if (defs != null && defs.isObject()) {
                Iterator<Map.Entry<String, JsonNode>> it = defs.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    add(Kind.RECORD, e.getKey(), e.getKey());
                    jsonSchema(e.getValue(), e.getKey(), false);
                }
            }
        }
    }
}
