package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.SearchTerm.Kind;
import io.quire.journal.model.Subject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * The search index in the view, written by the applier beside the schema it indexes, so every node
 * holds the same one and a replay rebuilds it.
 *
 * <pre>
 * Q kind term 0 context 0 id     a posting: content {@code id} of {@code context} has the term; value: the schema type's letter
 * Q s word 0 subject             a posting of a subject's name, whole and each of its words
 * q kind reversed-term           the term exists, spelt backwards (the dictionary a query with a leading wildcard walks)
 * </pre>
 *
 * Terms are keyed in lower case, so every match is case-insensitive. A posting is per content, one
 * key and one byte; where in the schema the term is, and how the schema spells it, are derived
 * again from the stored schema for the hits a query answers.
 */
public final class SearchIndex {

    static final byte POSTING = 'Q';
    static final byte DICTIONARY = 'q';
    private static final byte[] NOTHING = {0};

    /** Words of subject names that nearly every subject has, and that find nothing: not filed. */
    static final Set<String> COMMON_SUBJECT_WORDS = Set.of("value", "key");

    private SearchIndex() {
    }

    /** Files content {@code id}'s terms, those of its data contract's metadata included. */
    public static void file(Changes out, Context ctx, SchemaId id, SchemaType type, List<String> encoded,
                            Metadata metadata) {
        Set<SearchTerm.Key> keys = new LinkedHashSet<>(SearchTerm.decodeAll(encoded));
        keys.addAll(metadataKeys(metadata));
        if (keys.isEmpty()) {
            return;
        }
        byte[] value = {(byte) typeCode(type)};
        byte[] context = ctx.name().getBytes(StandardCharsets.UTF_8);
        for (SearchTerm.Key k : keys) {
            byte[] term = k.key().getBytes(StandardCharsets.UTF_8);
            // Q kind term 0 context 0 id, in one array
            byte[] posting = new byte[2 + term.length + 1 + context.length + 1 + 8];
            posting[0] = POSTING;
            posting[1] = k.kind().code();
            System.arraycopy(term, 0, posting, 2, term.length);
            System.arraycopy(context, 0, posting, 3 + term.length, context.length);
            ByteBuffer.wrap(posting, posting.length - 8, 8).putLong(id.value());
            out.putDerived(posting, value);
            out.putDerived(dictionary(k.kind().code(), k.key(), term), NOTHING);
        }
    }

    /** The keys of a contract's metadata: its tags, and its properties as key and as key=value. */
    public static List<SearchTerm.Key> metadataKeys(Metadata metadata) {
        List<SearchTerm.Key> keys = new ArrayList<>();
        if (metadata == null) {
            return keys;
        }
        for (Map.Entry<String, SortedSet<String>> e : metadata.tags().entrySet()) {
            for (String tag : e.getValue()) {
                if (SearchTerm.indexable(tag)) {
                    keys.add(new SearchTerm.Key(Kind.TAG, SearchTerm.key(tag)));
                }
            }
        }
        for (Map.Entry<String, String> e : metadata.properties().entrySet()) {
            for (String term : List.of(e.getKey(), e.getKey() + "=" + e.getValue())) {
                if (SearchTerm.indexable(term)) {
                    keys.add(new SearchTerm.Key(Kind.PROPERTY, SearchTerm.key(term)));
                }
            }
        }
        return keys;
    }

    /** Files a subject's name, whole and each of its words, when the subject gets its first version. */
    public static void fileSubject(Changes out, Subject subject) {
        byte[] name = subject.name().getBytes(StandardCharsets.UTF_8);
        for (String w : subjectWords(subject)) {
            out.putDerived(Keys.concat(termPrefix(Kind.SUBJECT.code(), w), name), NOTHING);
            out.putDerived(dictionary(Kind.SUBJECT.code(), w), NOTHING);
        }
    }

    /**
     * The keys a subject's name is filed under: the whole name (without its context) and its words
     * of three letters or more without a digit (a generated part, a version, is not a word people
     * search by; the whole name and a prefix of it still find it).
     */
    public static List<String> subjectWords(Subject subject) {
        String bare = SearchTerm.key(subject.bare());
        List<String> words = new ArrayList<>();
        if (SearchTerm.indexable(bare)) {
            words.add(bare);
        }
        int start = 0;
        for (int i = 0; i <= bare.length(); i++) {
            if (i == bare.length() || !Character.isLetterOrDigit(bare.charAt(i))) {
                String w = bare.substring(start, i);
                if (w.length() >= 3 && w.length() < bare.length() && !COMMON_SUBJECT_WORDS.contains(w)
                        && w.chars().noneMatch(Character::isDigit) && !words.contains(w)) {
                    words.add(w);
                }
                start = i + 1;
            }
        }
        return words;
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

    /** {@code Q kind term 0}: every posting of a term of a kind. */
    static byte[] termPrefix(byte kind, String key) {
        return Keys.concat(new byte[] {POSTING, kind}, key.getBytes(StandardCharsets.UTF_8), new byte[] {0});
    }

    /** {@code Q kind prefix}: the postings of every term of a kind that starts with {@code prefix}. */
    static byte[] kindPrefix(byte kind, String prefix) {
        return Keys.concat(new byte[] {POSTING, kind}, prefix.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] posting(byte kind, String key, Context ctx, SchemaId id) {
        return Keys.concat(termPrefix(kind, key), tail(ctx, id));
    }

    private static byte[] tail(Context ctx, SchemaId id) {
        return Keys.concat(ctx.name().getBytes(StandardCharsets.UTF_8), new byte[] {0},
                ByteBuffer.allocate(8).putLong(id.value()).array());
    }

    static byte[] dictionary(byte kind, String key) {
        return dictionary(kind, key, key.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code q kind reversed-term}; {@code utf8} is the key's bytes (reversed as they are when all ASCII). */
    private static byte[] dictionary(byte kind, String key, byte[] utf8) {
        byte[] reversed = utf8.length == key.length() ? utf8
                : new StringBuilder(key).reverse().toString().getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[2 + reversed.length];
        out[0] = DICTIONARY;
        out[1] = kind;
        for (int i = 0; i < reversed.length; i++) {
            out[2 + i] = reversed == utf8 ? utf8[utf8.length - 1 - i] : reversed[i];
        }
        return out;
    }
}
