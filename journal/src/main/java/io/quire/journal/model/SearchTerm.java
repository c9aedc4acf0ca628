package io.quire.journal.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One thing a schema defines or says that search finds it by: a record's name, a field's name, a
 * word of a doc, a tag. The edge computes a schema's terms with the schema's own library (the
 * applier parses nothing) and carries them in the command, encoded as {@code kind TAB term TAB path}
 * (a tab inside a name becomes a space); the applier files them in the view's index.
 *
 * @param term as the schema spells it; the index compares it case-insensitively
 * @param path where in the schema: {@code com.acme.Order.customer_id} for a field of record
 *     {@code com.acme.Order}, the field or record a doc or tag belongs to
 */
public record SearchTerm(Kind kind, String term, String path) {

    /** The longest term the index files; a longer one (a long doc word, a generated name) is left out. */
    public static final int MAX_TERM = 200;

    /** The kinds of terms, each with the byte the index files it under. */
    public enum Kind {
        /** A named type: Avro record, enum, fixed; Protobuf message or enum; JSON Schema title. */
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

    public SearchTerm {
        term = clean(term);
        path = path == null ? "" : clean(path);
    }

    /** The term as the index keys it: lower case, any language's letters kept. */
    public String key() {
        return term.toLowerCase(Locale.ROOT);
    }

    /** Whether the index files this term: not blank, not too long. */
    public boolean indexed() {
        return !term.isBlank() && term.length() <= MAX_TERM;
    }

    public String encode() {
        return kind.label() + '\t' + term + '\t' + path;
    }

    /** The terms a command carries; an entry that is not one (a later kind, a broken line) is skipped. */
    public static List<SearchTerm> decodeAll(List<String> encoded) {
        List<SearchTerm> out = new ArrayList<>(encoded.size());
        for (String e : encoded) {
            String[] parts = e.split("\t", 3);
            if (parts.length < 2) {
                continue;
            }
            try {
                out.add(new SearchTerm(Kind.ofLabel(parts[0]), parts[1], parts.length > 2 ? parts[2] : ""));
            } catch (IllegalArgumentException unknownKind) {
                // a kind a later release files; this one leaves it out
            }
        }
        return out;
    }

    public static List<String> encodeAll(List<SearchTerm> terms) {
        return terms.stream().filter(SearchTerm::indexed).map(SearchTerm::encode).distinct().toList();
    }

    private static String clean(String s) {
        return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ');
    }
}
