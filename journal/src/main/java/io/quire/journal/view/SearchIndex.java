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
import java.util.Arrays;
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
 * Q kind term 0 context 0 block   the contents of {@code context} with ids in that block of 1,024
 *                                  ({@code id >>> 10}, 4 bytes) that have the term: a list of
 *                                  entries of 2 bytes each (the id's low 10 bits, then the schema
 *                                  type in 2 bits), end to end
 * Q s word 0 subject              a posting of a subject's name, whole and each of its words
 * q kind reversed-term            the term exists, spelt backwards (the dictionary a query with a leading wildcard walks)
 * O sequence                       a bundle the store has not expanded yet (after a replay; see {@link #BUNDLE})
 * </pre>
 *
 * A list is only ever appended to, in journal order, through RocksDB's merge operator (operands
 * end to end, as {@link #append} does): a group of commands appends once per list, so a term
 * every schema has costs a few keys per group, not one per schema, and the bytes are the same
 * however the journal was grouped. Terms are keyed in lower case, so every match is
 * case-insensitive; where in the schema a term is, and how the schema spells it, are derived again
 * from the stored schema for the hits a query answers.
 */
public final class SearchIndex {

    static final byte POSTING = 'Q';
    static final byte DICTIONARY = 'q';
    private static final byte[] NOTHING = {0};

    /** Words of subject names that nearly every subject has, and that find nothing: not filed. */
    static final Set<String> COMMON_SUBJECT_WORDS = Set.of("value", "key");

    private SearchIndex() {
    }

    /**
     * Files content {@code id}'s terms, those of its data contract's metadata included, as one
     * bundle ({@link #BUNDLE}): the store expands it into the index's entries ({@link #expand}),
     * either in the command's group or, after a replay, in large batches of its own.
     */
    public static void file(Changes out, Context ctx, SchemaId id, SchemaType type, List<String> encoded,
                            Metadata metadata) {
        List<SearchTerm.Key> meta = metadataKeys(metadata);
        if (encoded.isEmpty() && meta.isEmpty()) {
            return;
        }
        byte[][] parts = new byte[encoded.size() + meta.size()][];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            String part;
            if (i < encoded.size()) {
                part = encoded.get(i);
                // a key with a line break is not indexable: kept unreadable as a key, not split in two
                part = part.indexOf('\n') < 0 ? part : part.replace('\n', '\u0001');
            } else {
                SearchTerm.Key k = meta.get(i - encoded.size());
                part = k.kind().label() + '\t' + k.key();
            }
            parts[i] = part.getBytes(StandardCharsets.UTF_8);
            length += (i == 0 ? 0 : 1) + parts[i].length;
        }
        byte[] context = ctx.name().getBytes(StandardCharsets.UTF_8);
        ByteBuffer bundle = ByteBuffer.allocate(1 + 8 + 1 + 2 + context.length + length)
                .put(CONTENT).putLong(id.value()).put((byte) typeCode(type)).putShort((short) context.length)
                .put(context);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                bundle.put((byte) '\n');
            }
            bundle.put(parts[i]);
        }
        out.putDerived(BUNDLE_KEY, bundle.array());
    }

    /** Files a subject's name, whole and each of its words, when the subject gets its first version: one bundle. */
    public static void fileSubject(Changes out, Subject subject) {
        byte[] name = subject.name().getBytes(StandardCharsets.UTF_8);
        out.putDerived(BUNDLE_KEY, ByteBuffer.allocate(1 + name.length).put(SUBJECT_NAME).put(name).array());
    }

    /**
     * The first byte of a bundle's key: the terms of one new content or one new subject, as the
     * applier files them. A bundle is never read as it is: the store expands it ({@link #expand})
     * into the index's lists and dictionary keys, or keeps it under {@code O} and a sequence
     * number until it expands it later (docs/adr/0018).
     */
    public static final byte BUNDLE = 'O';
    private static final byte[] BUNDLE_KEY = {BUNDLE};
    private static final byte CONTENT = 'c';
    private static final byte SUBJECT_NAME = 's';

    /** Where the entries of an expanded bundle go. */
    @FunctionalInterface
    public interface Sink {
        void put(byte[] key, byte[] value);
    }

    /** Whether a term's dictionary key is to be filed: false for one filed before (putting it again changes nothing). */
    @FunctionalInterface
    public interface NewTerms {
        boolean first(byte kind, String key);
    }

    /** Every dictionary key filed, taken before or not. */
    public static final NewTerms EVERY_TERM = (kind, key) -> true;

    /**
     * A bundle's entries: for a content, its entry appended to each of its terms' lists ({@link
     * #isAppend}) and each new term's dictionary key; for a subject, the postings of its name and
     * words and their dictionary keys.
     */
    public static void expand(byte[] bundle, NewTerms dictionary, Sink out) {
        ByteBuffer b = ByteBuffer.wrap(bundle);
        if (b.get() == SUBJECT_NAME) {
            Subject subject = Subject.of(new String(bundle, 1, bundle.length - 1, StandardCharsets.UTF_8));
            byte[] name = subject.name().getBytes(StandardCharsets.UTF_8);
            byte kind = Kind.SUBJECT.code();
            for (String w : subjectWords(subject)) {
                out.put(Keys.concat(termPrefix(kind, w), name), NOTHING);
                if (dictionary.first(kind, w)) {
                    out.put(dictionary(kind, w), NOTHING);
                }
            }
            return;
        }
        long id = b.getLong();
        byte type = b.get();
        byte[] context = new byte[b.getShort() & 0xffff];
        b.get(context);
        String text = new String(bundle, b.position(), b.remaining(), StandardCharsets.UTF_8);
        byte[] entry = entry(id, type);
        int block = (int) (id >>> BLOCK_BITS);
        for (SearchTerm.Key k : new LinkedHashSet<>(SearchTerm.decodeAll(List.of(text.split("\n"))))) {
            byte[] term = k.key().getBytes(StandardCharsets.UTF_8);
            byte kind = k.kind().code();
            out.put(list(kind, term, context, block), entry);
            if (dictionary.first(kind, k.key())) {
                out.put(dictionary(kind, k.key(), term), NOTHING);
            }
        }
    }

    /** A command's derived entries (its bundles) expanded, each dictionary key filed (a store without one of its own). */
    public static List<Changes.Entry> expandAll(List<Changes.Entry> bundles) {
        List<Changes.Entry> out = new ArrayList<>(bundles.size() * 16);
        for (Changes.Entry e : bundles) {
            expand(e.value(), EVERY_TERM, (k, v) -> out.add(new Changes.Entry(k, v)));
        }
        return out;
    }

    /** Ids per list key. */
    static final int BLOCK_BITS = 10;
    /** Bytes of a list's entry: the id's low {@link #BLOCK_BITS} bits (its block is the key's), then the schema type's. */
    static final int ENTRY = 2;
    private static final String TYPES = "AJP";
    private static final long LOW_BITS = (1 << BLOCK_BITS) - 1;

    static int block(SchemaId id) {
        return (int) (id.value() >>> BLOCK_BITS);
    }

    /** Content {@code id}'s entry in a list: its low bits and its schema type ({@code type} its letter). */
    static byte[] entry(long id, byte type) {
        int bits = (int) (id & LOW_BITS) << 2 | Math.max(0, TYPES.indexOf(type));
        return new byte[] {(byte) (bits >>> 8), (byte) bits};
    }

    /** Whether a key is a posting list, appended to and never put ({@code Q}, any kind but a subject's). */
    public static boolean isAppend(byte[] key) {
        return key.length > 1 && key[0] == POSTING && key[1] != Kind.SUBJECT.code();
    }

    /** A list with {@code operand} appended, as the merge operator appends: end to end. */
    public static byte[] append(byte[] existing, byte[] operand) {
        if (existing == null) {
            return operand;
        }
        byte[] out = Arrays.copyOf(existing, existing.length + operand.length);
        System.arraycopy(operand, 0, out, existing.length, operand.length);
        return out;
    }

    /** How many entries a list holds. */
    static int entries(byte[] list) {
        return list.length / ENTRY;
    }

    private static int entryBits(byte[] list, int i) {
        return (list[i * ENTRY] & 0xff) << 8 | (list[i * ENTRY + 1] & 0xff);
    }

    /** The block of ids a list's key is for (its last 4 bytes). */
    static long block(byte[] listKey) {
        return ByteBuffer.wrap(listKey, listKey.length - 4, 4).getInt() & 0xffffffffL;
    }

    /** The id of entry {@code i} of a list of {@code block} ({@link #block(byte[])}). */
    static long entryId(long block, byte[] list, int i) {
        return block << BLOCK_BITS | entryBits(list, i) >>> 2;
    }

    /** The schema type's letter of a list's entry {@code i}. */
    static byte entryType(byte[] list, int i) {
        return (byte) TYPES.charAt(Math.min(2, entryBits(list, i) & 3));
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

    /** The list that holds (or would hold) content {@code id} of {@code ctx} for a term. */
    static byte[] list(byte kind, String key, Context ctx, SchemaId id) {
        return list(kind, key.getBytes(StandardCharsets.UTF_8), ctx.name().getBytes(StandardCharsets.UTF_8), block(id));
    }

    /** {@code Q kind term 0 context 0 block}, in one array. */
    private static byte[] list(byte kind, byte[] term, byte[] context, int block) {
        byte[] list = new byte[2 + term.length + 1 + context.length + 1 + 4];
        list[0] = POSTING;
        list[1] = kind;
        System.arraycopy(term, 0, list, 2, term.length);
        System.arraycopy(context, 0, list, 3 + term.length, context.length);
        ByteBuffer.wrap(list, list.length - 4, 4).putInt(block);
        return list;
    }

    /** Whether a list of {@code id}'s block holds content {@code id}. */
    static boolean holds(byte[] list, SchemaId id) {
        if (list == null) {
            return false;
        }
        int low = (int) (id.value() & LOW_BITS);
        for (int i = 0; i < entries(list); i++) {
            if (entryBits(list, i) >>> 2 == low) {
                return true;
            }
        }
        return false;
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
