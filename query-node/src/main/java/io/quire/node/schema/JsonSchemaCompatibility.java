package io.quire.node.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.schema.JsonSchemaSupport.Document;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Can a reader schema accept every document a writer schema accepts? One structural pass over
 * both, in the spirit of Confluent's JSON Schema rules: a reader may widen (more types, looser
 * bounds, fewer required properties, more enum values, more union branches, an open content
 * model) but never narrow; a property the reader adds is only safe where the writer's content
 * model was closed (or the new property accepts anything); a property the reader drops is only
 * safe where the reader's content model is open. {@code $ref} is followed inside a document and
 * into referenced documents. The errors name the rule (Confluent's difference names) and the path.
 */
final class JsonSchemaCompatibility {

    private static final Set<String> ANNOTATIONS = Set.of("$schema", "$id", "id", "$comment", "title", "description",
            "default", "examples", "definitions", "$defs", "deprecated", "readOnly", "writeOnly", "$anchor",
            "$vocabulary", "format", "contentEncoding", "contentMediaType");
    private static final int MAX_DEPTH = 64;

    final Document readerDoc;
    final Document writerDoc;
    final String readerRole;
    final String writerRole;
    private final List<String> errors = new ArrayList<>();
    private final Set<Pair> inProgress = new HashSet<>();
    private final Shared shared;

    /** Pairs of schema nodes compared at most this many times per check: beyond it, 42201. */
    static final int MAX_COMPARISONS = 200_000;

    /**
     * What one check's comparisons share, trial comparisons of union branches included: the
     * errors of every pair already compared (a schema that reaches the same definitions through
     * many {@code $ref} paths compares each pair once), and the work done so far.
     */
    private static final class Shared {
        final Map<Pair, List<String>> done = new HashMap<>();
        int comparisons;
    }

    /** A (reader, writer) pair of schema nodes by identity: the key of the recursion guard. */
    private record Pair(JsonNode reader, JsonNode writer) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Pair p && p.reader == reader && p.writer == writer;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(reader) + System.identityHashCode(writer);
        }
    }

    JsonSchemaCompatibility(Document reader, Document writer, String readerRole, String writerRole) {
        this(reader, writer, readerRole, writerRole, new Shared());
    }

    private JsonSchemaCompatibility(Document reader, Document writer, String readerRole, String writerRole,
                                    Shared shared) {
        this.readerDoc = reader;
        this.writerDoc = writer;
        this.readerRole = readerRole;
        this.writerRole = writerRole;
        this.shared = shared;
    }

    List<String> check() {
        compare(readerDoc.root(), writerDoc.root(), "#", 0);
        return errors;
    }

    void error(String type, String path, String what) {
        errors.add("{errorType:'" + type + "', description:'" + what + " at path '" + path + "' of the "
                + readerRole + " schema (checked against the " + writerRole + " schema)'}");
    }

    /** Errors of {@code reader} against {@code writer} collected separately (for union branches). */
    List<String> trial(JsonNode reader, JsonNode writer, String path, int depth) {
        JsonSchemaCompatibility sub = new JsonSchemaCompatibility(readerDoc, writerDoc, readerRole, writerRole, shared);
        sub.inProgress.addAll(inProgress);
        sub.compare(reader, writer, path, depth);
        return sub.errors;
    }

    void compare(JsonNode r, JsonNode w, String path, int depth) {
        if (depth > MAX_DEPTH) {
            return;
        }
        JsonNode given = r;
        JsonNode givenWriter = w;
        r = resolve(r, readerDoc);
        w = resolve(w, writerDoc);
        // Only nodes reached through $ref can be met again by another path; inline ones cannot.
        boolean shareable = r != given || w != givenWriter;
        Pair key = new Pair(r, w);
        List<String> known = shareable ? shared.done.get(key) : null;
        if (known != null) {
            if (!known.isEmpty()) {
                errors.add(known.get(0)); // reported in full where it was first met; one line here keeps the verdict
            }
            return;
        }
        if (!inProgress.add(key)) {
            return; // a recursive schema compared with itself: assume the cycle holds
        }
        if (++shared.comparisons > MAX_COMPARISONS) {
            throw new InvalidSchemaException("Invalid schema: too complex to check for compatibility (more than "
                    + MAX_COMPARISONS + " comparisons of subschemas)");
        }
        int before = errors.size();
        try {
            compareResolved(r, w, path, depth);
        } finally {
            inProgress.remove(key);
        }
        if (shareable) {
            shared.done.put(key, List.copyOf(errors.subList(before, errors.size())));
        }
    }

    private void compareResolved(JsonNode r, JsonNode w, String path, int depth) {
        if (acceptsAll(r) || isFalse(w)) {
            return;
        }
        if (isFalse(r)) {
            error("TYPE_NARROWED", path, "the schema accepts nothing");
            return;
        }
        if (w.isBoolean()) { // true: the writer accepts anything, the reader does not
            error("TYPE_NARROWED", path, "the schema no longer accepts any value");
            return;
        }
        // Unions on the writer's side: every branch must be readable.
        String wSum = sumKeyword(w);
        String rSum = sumKeyword(r);
        if (wSum != null) {
            if (rSum != null && rSum.equals("oneOf") && wSum.equals("anyOf")) {
                error("COMBINED_TYPE_CHANGED", path, "anyOf became oneOf");
            }
            int i = 0;
            for (JsonNode branch : w.get(wSum)) {
                List<String> found = rSum == null ? trial(r, branch, path + "/" + wSum + "/" + i, depth + 1)
                        : bestBranch(r.get(rSum), branch, path + "/" + wSum + "/" + i, depth + 1);
                if (!found.isEmpty()) {
                    error("SUM_TYPE_NARROWED", path + "/" + wSum + "/" + i, "a branch of the union is not accepted");
                    errors.addAll(found);
                }
                i++;
            }
            if (rSum == null) {
                compareKeywords(r, w, path, depth);
            }
            return;
        }
        if (rSum != null) {
            List<String> found = bestBranch(r.get(rSum), w, path + "/" + rSum, depth + 1);
            if (!found.isEmpty()) {
                error("SUM_TYPE_NARROWED", path, "no branch of the union accepts the " + writerRole + " schema");
                errors.addAll(found);
            }
        }
        // allOf: more parts than the writer had is Confluent's PRODUCT_TYPE_EXTENDED, incompatible
        // even when the writer implies the new part; otherwise each reader part must accept the
        // writer, and a writer's part may stand for it.
        int rParts = distinctCount(r.get("allOf"));
        int wParts = w.has("allOf") ? distinctCount(w.get("allOf")) : 1;
        if (r.has("allOf") && rParts > wParts) {
            error("PRODUCT_TYPE_EXTENDED", path + "/allOf", "allOf has " + rParts + " parts, " + wParts + " before");
        } else if (r.has("allOf")) {
            int i = 0;
            for (JsonNode part : r.get("allOf")) {
                List<String> found = trial(part, w, path + "/allOf/" + i, depth + 1);
                if (!found.isEmpty() && w.has("allOf")) {
                    found = bestBranch(w.get("allOf"), part, path + "/allOf/" + i, depth + 1, true);
                }
                if (!found.isEmpty()) {
                    error("PRODUCT_TYPE_EXTENDED", path + "/allOf/" + i, "a part added to allOf is not implied");
                    errors.addAll(found);
                }
                i++;
            }
        }
        if (r.has("not")) {
            if (!w.has("not")) {
                error("NOT_TYPE_EXTENDED", path, "'not' was added");
            } else {
                List<String> found = trial(w.get("not"), r.get("not"), path + "/not", depth + 1);
                if (!found.isEmpty()) {
                    error("NOT_TYPE_EXTENDED", path, "'not' excludes more than before");
                }
            }
        }
        compareKeywords(r, w, path, depth);
    }

    static int distinctCount(JsonNode array) {
        if (array == null || !array.isArray()) {
            return 0;
        }
        Set<JsonNode> parts = new HashSet<>();
        array.forEach(parts::add);
        return parts.size();
    }

    /** No patternProperties and additionalProperties absent or true: any property may appear. */
    boolean openContentModel(JsonNode w) {
        if (w.has("patternProperties") && w.get("patternProperties").size() > 0) {
            return false;
        }
        JsonNode extra = w.get("additionalProperties");
        return extra == null || acceptsAll(resolve(extra, writerDoc));
    }

    /** Errors of the best branch of {@code union} reading {@code w}; empty when one accepts it. */
    private List<String> bestBranch(JsonNode union, JsonNode w, String path, int depth) {
        return bestBranch(union, w, path, depth, false);
    }

    private List<String> bestBranch(JsonNode branches, JsonNode other, String path, int depth, boolean branchesWrite) {
        List<String> best = null;
        for (JsonNode b : branches) {
            List<String> found = branchesWrite ? trial(other, b, path, depth) : trial(b, other, path, depth);
            if (found.isEmpty()) {
                return found;
            }
            if (best == null || found.size() < best.size()) {
                best = found;
            }
        }
        return best == null ? List.of("{errorType:'SUM_TYPE_NARROWED', description:'empty union at path '" + path
                + "''}") : best;
    }

    private void compareKeywords(JsonNode r, JsonNode w, String path, int depth) {
        Set<String> rTypes = types(r);
        Set<String> wTypes = types(w);
        if (rTypes != null) {
            if (wTypes == null) {
                error("TYPE_NARROWED", path, "a type was added where any type was allowed");
                return;
            }
            Set<String> missing = new LinkedHashSet<>();
            for (String t : wTypes) {
                if (!rTypes.contains(t) && !(t.equals("integer") && rTypes.contains("number"))) {
                    missing.add(t);
                }
            }
            if (!missing.isEmpty()) {
                boolean overlap = missing.size() < wTypes.size();
                error(overlap ? "TYPE_NARROWED" : "TYPE_CHANGED", path, "type " + missing + " is no longer accepted");
                if (!overlap) {
                    return;
                }
            }
        }
        JsonScalarRules.compareEnum(this, r, w, path);
        if (both(rTypes, wTypes, "number", "integer")) {
            JsonScalarRules.compareNumbers(this, r, w, path);
        }
        if (both(rTypes, wTypes, "string")) {
            JsonScalarRules.upper(this, r, w, "maxLength", path, "MAX_LENGTH");
            JsonScalarRules.lower(this, r, w, "minLength", path, "MIN_LENGTH");
            if (r.has("pattern") && !r.get("pattern").equals(w.get("pattern"))) {
                error(w.has("pattern") ? "PATTERN_CHANGED" : "PATTERN_ADDED", path, "the pattern is stricter");
            }
        }
        if (both(rTypes, wTypes, "object") || (rTypes == null && wTypes == null)) {
            JsonObjectRules.compareObjects(this, r, w, path, depth);
        }
        if (both(rTypes, wTypes, "array") || (rTypes == null && wTypes == null)) {
            JsonArrayRules.compareArrays(this, r, w, path, depth);
        }
    }

    private static boolean both(Set<String> rTypes, Set<String> wTypes, String... kinds) {
        boolean inR = rTypes == null;
        boolean inW = wTypes == null;
        for (String k : kinds) {
            inR |= rTypes != null && rTypes.contains(k);
            inW |= wTypes != null && wTypes.contains(k);
        }
        return inR && inW && !(rTypes == null && wTypes == null);
    }

    static Set<String> strings(JsonNode array) {
        Set<String> out = new LinkedHashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static String sumKeyword(JsonNode n) {
        return n.has("oneOf") ? "oneOf" : n.has("anyOf") ? "anyOf" : null;
    }

    /** The declared types; null when any type is allowed. */
    static Set<String> types(JsonNode n) {
        JsonNode t = n.get("type");
        if (t == null) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        if (t.isArray()) {
            t.forEach(x -> out.add(x.asText()));
        } else {
            out.add(t.asText());
        }
        return out;
    }

    static boolean isFalse(JsonNode n) {
        return n.isBoolean() && !n.asBoolean() || n.isObject() && n.has("not") && acceptsAll(n.get("not"))
                && n.size() == 1;
    }

    /** {@code true}, or an object with no assertion keywords (only annotations). */
    static boolean acceptsAll(JsonNode n) {
        if (n.isBoolean()) {
            return n.asBoolean();
        }
        if (!n.isObject()) {
            return false;
        }
        Iterator<String> names = n.fieldNames();
        while (names.hasNext()) {
            if (!ANNOTATIONS.contains(names.next())) {
                return false;
            }
        }
        return true;
    }

    /** Follows {@code $ref} (local JSON pointers, and reference names with an optional pointer). */
    static JsonNode resolve(JsonNode n, Document doc) {
        JsonNode current = n;
        JsonNode root = doc.root();
        for (int hops = 0; hops < 32 && current.isObject() && current.has("$ref"); hops++) {
            String ref = current.get("$ref").asText();
            int hash = ref.indexOf('#');
            String file = hash < 0 ? ref : ref.substring(0, hash);
            String pointer = hash < 0 ? "" : ref.substring(hash + 1);
            if (!file.isEmpty()) {
                JsonNode target = doc.references().get(file);
                if (target == null) {
                    return current; // unresolvable: compared as written
                }
                root = target;
            }
            JsonNode next = pointer.isEmpty() ? root : root.at(pointer.startsWith("/") ? pointer : "/" + pointer);
            if (next.isMissingNode()) {
                return current;
            }
            current = next;
        }
        return current;
    }
}
