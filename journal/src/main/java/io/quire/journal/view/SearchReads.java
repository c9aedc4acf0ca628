package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Queries over the {@link SearchIndex}: terms exact, by prefix ({@code customer*}) or by wildcard
 * ({@code *_id}, {@code cust?mer}), case-insensitive; each posting named by every subject version
 * that uses its content, filtered and paged. Hits come in the index's order: by term, kind,
 * context and id, then subject and version.
 */
public final class SearchReads {

    /** How many distinct terms a query with a leading wildcard may match before it says it was cut short. */
    public static final int MAX_TERMS = 10_000;
    /** How many postings one query reads at most; past it the page says it was cut short. */
    public static final int MAX_POSTINGS = 2_000_000;

    private final RegistryView view;

    public SearchReads(RegistryView view) {
        this.view = view;
    }

    /**
     * A query.
     *
     * @param q a term, with {@code *} for any run of characters and {@code ?} for one; null with tags given: every content with one of them
     * @param kinds the kinds of term to match; empty: all
     * @param tags hits only in content that carries one of these tags (any case); empty: no filter
     * @param type hits only of this schema type; null: any
     * @param subjectPrefix hits only in subjects whose name (with or without its context) starts with it; null or empty: any
     * @param context hits only in this context; null: any
     * @param latestOnly hits only in each subject's latest live version
     * @param deleted soft-deleted versions too
     * @param visible the subjects the reader may see
     */
    public record Query(String q, Set<SearchTerm.Kind> kinds, List<String> tags, SchemaType type, String subjectPrefix,
                        Context context, boolean latestOnly, boolean deleted, Predicate<Subject> visible,
                        int offset, int limit) {
    }

    /** One place a term was found: which subject version, which content, where in it. */
    public record Hit(Subject subject, Version version, SchemaId id, SchemaType schemaType, SearchTerm.Kind kind,
                      String term, String path, boolean deleted) {
    }

    /** A page of hits; {@code more}: there are hits past it; {@code cutShort}: the query met a limit of its work. */
    public record Page(List<Hit> hits, boolean more, boolean cutShort) {
    }

    public Page search(Query query) {
        Collector c = new Collector(query);
        if (query.q() == null || query.q().isBlank()) {
            for (String tag : query.tags()) {
                postings(tag.toLowerCase(Locale.ROOT), Set.of(SearchTerm.Kind.TAG), c);
            }
        } else {
            matchingTerms(query.q().toLowerCase(Locale.ROOT), query.kinds(), c);
        }
        return new Page(c.hits, c.more, c.cutShort);
    }

    /** Every posting of every term the pattern matches. */
    private void matchingTerms(String pattern, Set<SearchTerm.Kind> kinds, Collector c) {
        int wild = firstWildcard(pattern);
        if (wild < 0) {
            postings(pattern, kinds, c);
            return;
        }
        Pattern regex = compile(pattern);
        String literal = pattern.substring(0, wild);
        if (!literal.isEmpty()) { // walk the postings under the literal prefix
            byte[] prefix = concat(new byte[] {SearchIndex.POSTING}, literal.getBytes(StandardCharsets.UTF_8));
            view.kv().scan(prefix, (k, v) -> {
                int zero = indexOf(k, (byte) 0, 1);
                String term = new String(k, 1, zero - 1, StandardCharsets.UTF_8);
                return !regex.matcher(term).matches() || c.posting(k, zero, v, kinds);
            });
            return;
        }
        List<String> terms = new ArrayList<>();
        view.kv().scan(new byte[] {SearchIndex.DICTIONARY}, (k, v) -> {
            String term = new String(k, 1, k.length - 3, StandardCharsets.UTF_8);
            SearchTerm.Kind kind = SearchTerm.Kind.ofCode(k[k.length - 1]);
            if ((kinds.isEmpty() || kinds.contains(kind)) && regex.matcher(term).matches()
                    && (terms.isEmpty() || !terms.get(terms.size() - 1).equals(term))) {
                terms.add(term);
                if (terms.size() >= MAX_TERMS) {
                    c.cutShort = true;
                    return false;
                }
            }
            return true;
        });
        for (String term : terms) {
            if (!postings(term, kinds, c)) {
                return;
            }
        }
    }

    /** The postings of one term (lower case); false once the page is full. */
    private boolean postings(String term, Set<SearchTerm.Kind> kinds, Collector c) {
        boolean[] go = {true};
        view.kv().scan(SearchIndex.termPrefix(term), (k, v) -> go[0] = c.posting(k, indexOf(k, (byte) 0, 1), v, kinds));
        return go[0];
    }

    /** Gathers the page from postings in order. */
    private final class Collector {
        final Query query;
        final List<Hit> hits = new ArrayList<>();
        boolean more;
        boolean cutShort;
        int skipped;
        long postingsRead;

        Collector(Query query) {
            this.query = query;
        }

        /** One posting ({@code zero}: where its term ends); false to stop. */
        boolean posting(byte[] key, int zero, byte[] value, Set<SearchTerm.Kind> kinds) {
            if (++postingsRead > MAX_POSTINGS) {
                cutShort = true;
                return false;
            }
            SearchTerm.Kind kind = SearchTerm.Kind.ofCode(key[zero + 1]);
            if (!kinds.isEmpty() && !kinds.contains(kind)) {
                return true;
            }
            if (kind == SearchTerm.Kind.SUBJECT) {
                Subject s = Subject.of(new String(key, zero + 2, key.length - zero - 2, StandardCharsets.UTF_8));
                for (VersionRecord v : view.versions(s)) {
                    Optional<StoredSchema> schema = view.schemaOf(s, v);
                    SchemaType type = schema.map(StoredSchema::schemaType).orElse(SchemaType.AVRO);
                    if ((query.type() == null || query.type() == type) && tagged(s.context(), v.schemaId())
                            && !offer(s, v, type, kind, new String(key, 1, zero - 1, StandardCharsets.UTF_8),
                                    s.name())) {
                        return false;
                    }
                }
                return true;
            }
            int ctxEnd = indexOf(key, (byte) 0, zero + 2);
            Context ctx = Context.of(new String(key, zero + 2, ctxEnd - zero - 2, StandardCharsets.UTF_8));
            SchemaId id = SchemaId.of(ByteBuffer.wrap(key, ctxEnd + 1, 8).getLong());
            SchemaType type = SearchIndex.typeOf(value[0]);
            if ((query.context() != null && !query.context().equals(ctx))
                    || (query.type() != null && query.type() != type) || !tagged(ctx, id)) {
                return true;
            }
            String[] lines = new String(value, 1, value.length - 1, StandardCharsets.UTF_8).split("\n");
            for (RegistryView.Usage u : view.usages().usages(ctx, id)) {
                Optional<VersionRecord> v = view.version(u.subject(), u.version());
                if (v.isEmpty()) {
                    continue;
                }
                for (String line : lines) {
                    int tab = line.indexOf('\t');
                    if (!offer(u.subject(), v.get(), type, kind, line.substring(0, tab), line.substring(tab + 1))) {
                        return false;
                    }
                }
            }
            return true;
        }

        private boolean tagged(Context ctx, SchemaId id) {
            if (query.tags().isEmpty() || query.q() == null || query.q().isBlank()) {
                return true;
            }
            for (String tag : query.tags()) {
                if (view.kv().get(SearchIndex.posting(tag.toLowerCase(Locale.ROOT), SearchTerm.Kind.TAG.code(), ctx, id))
                        != null) {
                    return true;
                }
            }
            return false;
        }

        /** A hit if it passes the filters; false once the page is full (and one more hit was seen). */
        private boolean offer(Subject s, VersionRecord v, SchemaType type, SearchTerm.Kind kind, String term,
                              String path) {
            if ((v.deleted() && !query.deleted()) || !query.visible().test(s)
                    || (query.subjectPrefix() != null && !s.name().startsWith(query.subjectPrefix())
                            && !s.bare().startsWith(query.subjectPrefix()))
                    || (query.context() != null && !s.context().equals(query.context()))) {
                return true;
            }
            if (query.latestOnly()) {
                Optional<VersionRecord> latest = view.latestLive(s);
                if (latest.isEmpty() || !latest.get().version().equals(v.version())) {
                    return true;
                }
            }
            if (skipped < query.offset()) {
                skipped++;
                return true;
            }
            if (hits.size() >= query.limit()) {
                more = true;
                return false;
            }
            hits.add(new Hit(s, v.version(), v.schemaId(), type, kind, term, path, v.deleted()));
            return true;
        }
    }

    static int firstWildcard(String pattern) {
        int star = pattern.indexOf('*');
        int one = pattern.indexOf('?');
        return star < 0 ? one : one < 0 ? star : Math.min(star, one);
    }

    /** The pattern as a regular expression: {@code *} any run, {@code ?} one character, the rest literal. */
    static Pattern compile(String pattern) {
        StringBuilder re = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char ch : pattern.toCharArray()) {
            if (ch == '*' || ch == '?') {
                if (literal.length() > 0) {
                    re.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                re.append(ch == '*' ? ".*" : ".");
            } else {
                literal.append(ch);
            }
        }
        if (literal.length() > 0) {
            re.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return a.length;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
