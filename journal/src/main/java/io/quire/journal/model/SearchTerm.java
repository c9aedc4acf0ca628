package io.quire.journal.model;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One thing a schema defines or says that search finds it by: a record's name, a field's name, a
 * word of a doc, a tag. The edge computes a schema's terms with the schema's own library (the
 * applier parses nothing) and carries their keys in the command, grouped by kind:
 * {@code kind TAB key TAB key …} (see {@link #encodeAll}); the applier files the keys in the view's
 * index. Where in the schema a term is (its path) is not carried or filed: a search derives it
 * again from the stored schema for the hits it answers.
 *
 * @param term as the schema spells it
 * @param path where in the schema: {@code com.acme.Order.customer_id} for a field of record
 *     {@code com.acme.Order}, the field or record a doc or tag belongs to
 */
public record SearchTerm(Kind kind, String term, String path) {

    /** The longest term the index files; a longer one (a long doc word, a generated name) is left out. */
    public static final int MAX_TERM = 200;

    /** The kinds of terms, each with the byte the index files it under. */
    public enum Kind {
        /** A named type: Avro record, enum, fixed; Protobuf message or enum; JSON Schema title or definition. */
        RECORD('r'),
        /** An Avro namespace or a Protobuf package. */
        NAMESPACE('n'),
        /** A field, property or enum symbol. */
        FIELD('f'),
        /** A word of a doc, comment, description or title. */
        DOC('d'),
        /** A tag: Avro and JSON Schema {@code confluent:tags}, Protobuf {@code confluent.field_meta}, the contract's metadata tags. */
        TAG('t'),
        /** A data contract's metadata property, as {@code key} and as {@code key=value}. */
        PROPERTY('p'),
        /** A subject's name, whole and in its words. */
        SUBJECT('s');

        private final byte code;

        Kind(char code) {
            this.code = (byte) code;
        }

        public byte code() {
            return code;
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind ofCode(byte code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no search term kind " + (char) code);
        }

        /** The kind a query names ({@code field}, {@code record}, …). */
        public static Kind ofLabel(String label) {
            for (Kind k : values()) {
                if (k.label().equals(label.toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no search kind '" + label + "'; the kinds are "
                    + String.join(", ", List.of(values()).stream().map(Kind::label).toList()));
        }
    }

    /** A term as the index files it: its kind and its key. */
    public record Key(Kind kind, String key) {
    }

    public SearchTerm {
        term = term == null ? "" : term;
        path = path == null ? "" : path;
    }

    /** The term as the index keys it: lower case, any language's letters kept. */
    public String key() {
        return key(term);
    }

    public static String key(String term) {
        return term.toLowerCase(Locale.ROOT);
    }

    /** Whether the index files a term: not blank, not too long, no control character. */
    public static boolean indexable(String term) {
        if (term.isBlank() || term.length() > MAX_TERM) {
            return false;
        }
        for (int i = 0; i < term.length(); i++) {
            if (Character.isISOControl(term.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The keys of these terms as a command carries them: one entry per kind, each key once, in order. */
    public static List<String> encodeAll(List<SearchTerm> terms) {
        Map<Kind, Set<String>> byKind = new EnumMap<>(Kind.class);
        for (SearchTerm t : terms) {
            if (indexable(t.term())) {
                byKind.computeIfAbsent(t.kind(), k -> new LinkedHashSet<>()).add(t.key());
            }
        }
        List<String> out = new ArrayList<>(byKind.size());
        for (Map.Entry<Kind, Set<String>> e : byKind.entrySet()) {
            out.add(e.getKey().label() + '\t' + String.join("\t", e.getValue()));
        }
        return out;
    }

    /** The keys a command carries; an entry of a kind this release does not know is skipped. */
    public static List<Key> decodeAll(List<String> encoded) {
        List<Key> out = new ArrayList<>();
        for (String e : encoded) {
            String[] parts = e.split("\t");
            Kind kind;
            try {
                kind = Kind.ofLabel(parts[0]);
            } catch (IllegalArgumentException unknownKind) {
                continue;
            }
            for (int i = 1; i < parts.length; i++) {
                if (indexable(parts[i])) {
                    out.add(new Key(kind, key(parts[i])));
                }
            }
        }
        return out;
    }
}
