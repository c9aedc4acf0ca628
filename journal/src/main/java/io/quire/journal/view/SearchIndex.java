package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.Subject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * The search index in the view, written by the applier beside the schema it indexes, so every node
 * holds the same one and a replay rebuilds it.
 *
 * <pre>
 * Q term 0 kind context 0 id     a posting: content {@code id} of {@code context} has {@code term} of that kind;
 *                                 value: the schema type's byte, then "term TAB path" lines as the schema spells them
 * Q term 0 s subject             a posting of a subject's name (whole, and each of its words); value: the name
 * q term 0 kind                  the term exists (the dictionary a query with a leading wildcard walks)
 * </pre>
 *
 * Terms are keyed in lower case, so every match is case-insensitive; a posting is per content, and
 * a hit names every subject version that uses the content ({@link UsageReads}).
 */
public final class SearchIndex {

    static final byte POSTING = 'Q';
    static final byte DICTIONARY = 'q';
    private static final byte[] PRESENT = {1};

    private SearchIndex() {
    }

    /** Files content {@code id}'s terms, those of its data contract's metadata included. */
    public static void file(Changes out, Context ctx, SchemaId id, SchemaType type, List<String> encoded,
                            Metadata metadata) {
        List<SearchTerm> terms = new ArrayList<>(SearchTerm.decodeAll(encoded));
        if (metadata != null) {
            for (Map.Entry<String, SortedSet<String>> e : metadata.tags().entrySet()) {
                for (String tag : e.getValue()) {
                    terms.add(new SearchTerm(SearchTerm.Kind.TAG, tag, e.getKey()));
                }
            }
            for (Map.Entry<String, String> e : metadata.properties().entrySet()) {
                terms.add(new SearchTerm(SearchTerm.Kind.PROPERTY, e.getKey(), e.getKey() + "=" + e.getValue()));
                terms.add(new SearchTerm(SearchTerm.Kind.PROPERTY, e.getKey() + "=" + e.getValue(), e.getKey()));
            }
        }
        Map<String, Set<String>> postings = new LinkedHashMap<>();
        for (SearchTerm t : terms) {
            if (indexable(t)) {
                postings.computeIfAbsent(t.key() + '\0' + (char) t.kind().code(), k -> new LinkedHashSet<>())
                        .add(t.term() + '\t' + t.path());
            }
        }
        for (Map.Entry<String, Set<String>> p : postings.entrySet()) {
            String termAndKind = p.getKey();
            String term = termAndKind.substring(0, termAndKind.length() - 2);
            byte kind = (byte) termAndKind.charAt(termAndKind.length() - 1);
            String value = typeCode(type) + String.join("\n", p.getValue());
            out.put(posting(term, kind, ctx, id), value.getBytes(StandardCharsets.UTF_8));
            out.put(dictionary(term, kind), PRESENT);
        }
    }

    /** Files a subject's name, whole and each of its words, when the subject gets its first version. */
    public static void fileSubject(Changes out, Subject subject) {
        String bare = subject.bare();
        List<String> words = new ArrayList<>();
        words.add(bare.toLowerCase(Locale.ROOT));
        for (String w : bare.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() >= 2 && !words.contains(w)) {
                words.add(w);
            }
        }
        byte[] name = subject.name().getBytes(StandardCharsets.UTF_8);
        for (String w : words) {
            if (w.length() > SearchTerm.MAX_TERM || w.indexOf('\0') >= 0) {
                continue;
            }
            out.put(Keys.concat(termPrefix(w), new byte[] {SearchTerm.Kind.SUBJECT.code()}, name), name);
            out.put(dictionary(w, SearchTerm.Kind.SUBJECT.code()), PRESENT);
        }
    }

    static boolean indexable(SearchTerm t) {
        return t.indexed() && t.term().indexOf('\0') < 0 && t.path().indexOf('\0') < 0;
    }

    static char typeCode(SchemaType type) {
        return type.name().charAt(0); // A, J, P
    }

    static SchemaType typeOf(byte code) {
        for (SchemaType t : SchemaType.values()) {
            if (t.name().charAt(0) == code) {
                return t;
            }
        }
        return SchemaType.AVRO;
    }

    /** {@code Q term 0}: every posting of a term, of every kind. */
    static byte[] termPrefix(String lowerTerm) {
        return Keys.concat(new byte[] {POSTING}, lowerTerm.getBytes(StandardCharsets.UTF_8), new byte[] {0});
    }

    static byte[] posting(String lowerTerm, byte kind, Context ctx, SchemaId id) {
        return Keys.concat(termPrefix(lowerTerm), new byte[] {kind}, ctx.name().getBytes(StandardCharsets.UTF_8),
                new byte[] {0}, ByteBuffer.allocate(8).putLong(id.value()).array());
    }

    static byte[] dictionary(String lowerTerm, byte kind) {
        return Keys.concat(new byte[] {DICTIONARY}, lowerTerm.getBytes(StandardCharsets.UTF_8), new byte[] {0, kind});
    }
}
