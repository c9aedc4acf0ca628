package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.SearchTerm.Kind;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Queries over the {@link SearchIndex}: terms exact, by prefix ({@code customer*}) or by wildcard
 * ({@code *_id}, {@code cust?mer}, {@code *cust*}), case-insensitive; each posting named by every
 * subject version that uses its content, filtered and paged. Hits come in the index's order: by
 * kind, term, context and id (a list's entries sorted by id), then subject and version. A pattern with a literal start walks the
 * postings under it; one that starts with a wildcard and ends with a literal walks the reversed
 * dictionary under that ending; one that starts and ends with a wildcard walks the whole dictionary.
 */
public final class SearchReads {

    /** How many distinct terms a query with a leading wildcard may match before it says it was cut short. */
    public static final int MAX_TERMS = 10_000;
    /** How many posting lists (keys, up to 1,024 contents each) one query reads at most; past it the page says it was cut short. */
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
    public record Query(String q, Set<Kind> kinds, List<String> tags, SchemaType type, String subjectPrefix,
                        Context context, boolean latestOnly, boolean deleted, Predicate<Subject> visible,
                        int offset, int limit) {
    }

    /** One subject version whose content (or name) has a term: the term's kind and key, not yet where. */
    public record Hit(Subject subject, Version version, SchemaId id, SchemaType schemaType, Kind kind, String key,
                      boolean deleted) {
    }

    /** A page of hits; {@code more}: there are hits past it; {@code cutShort}: the query met a limit of its work. */
    public record Page(List<Hit> hits, boolean more, boolean cutShort) {
    }

    public Page search(Query query) {
        Collector c = new Collector(query);
        Set<Kind> kinds = query.kinds().isEmpty() ? EnumSet.allOf(Kind.class) : query.kinds();
        if (query.q() == null || query.q().isBlank()) {
            for (String tag : new TreeSet<>(query.tags().stream().map(SearchTerm::key).toList())) {
                if (!postings(Kind.TAG, tag, c)) {
                    break;
                }
            }
        } else {
            String pattern = query.q().toLowerCase(Locale.ROOT);
            for (Kind kind : kinds) {
                if (!matching(kind, pattern, c)) {
                    break;
                }
            }
        }
        return new Page(c.hits, c.more, c.cutShort);
    }

    /** Every posting of every term of one kind the pattern matches; false once the page is full. */
    private boolean matching(Kind kind, String pattern, Collector c) {
        int wild = firstWildcard(pattern);
        if (wild < 0) {
            return postings(kind, pattern, c);
        }
        Pattern regex = compile(pattern);
        boolean[] go = {true};
        if (wild > 0) { // walk the postings under the literal start
            byte[] prefix = SearchIndex.kindPrefix(kind.code(), pattern.substring(0, wild));
            view.kv().scan(prefix, (k, v) -> {
                int zero = indexOf(k, (byte) 0, 2);
                String term = new String(k, 2, zero - 2, StandardCharsets.UTF_8);
                return !regex.matcher(term).matches() || (go[0] = c.posting(kind, term, k, zero, v));
            });
            return go[0];
        }
        int last = Math.max(pattern.lastIndexOf('*'), pattern.lastIndexOf('?'));
        String ending = pattern.substring(last + 1);
        List<String> terms = new ArrayList<>();
        view.kv().scan(SearchIndex.dictionary(kind.code(), ending), (k, v) -> {
            String term = new StringBuilder(new String(k, 2, k.length - 2, StandardCharsets.UTF_8)).reverse().toString();
            if (regex.matcher(term).matches()) {
                terms.add(term);
                if (terms.size() >= MAX_TERMS) {
                    c.cutShort = true;
                    return false;
                }
            }
            return true;
        });
        terms.sort(null); // the index's order: by term
        for (String term : terms) {
            if (!postings(kind, term, c)) {
                return false;
            }
        }
        return true;
    }

    /** The postings of one term; false once the page is full. */
    private boolean postings(Kind kind, String term, Collector c) {
        boolean[] go = {true};
        view.kv().scan(SearchIndex.termPrefix(kind.code(), term),
                (k, v) -> go[0] = c.posting(kind, term, k, indexOf(k, (byte) 0, 2), v));
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
        boolean posting(Kind kind, String term, byte[] key, int zero, byte[] value) {
            if (++postingsRead > MAX_POSTINGS) {
                cutShort = true;
                return false;
            }
            if (kind == Kind.SUBJECT) {
                Subject s = Subject.of(new String(key, zero + 1, key.length - zero - 1, StandardCharsets.UTF_8));
                for (VersionRecord v : view.versions(s)) {
                    if (query.type() == null && query.tags().isEmpty()) {
                        if (!offer(s, v, null, kind, term)) {
                            return false;
                        }
                        continue;
                    }
                    SchemaType type = view.schemaOf(s, v).map(StoredSchema::schemaType).orElse(SchemaType.AVRO);
                    if ((query.type() == null || query.type() == type) && tagged(s.context(), v.schemaId())
                            && !offer(s, v, type, kind, term)) {
                        return false;
                    }
                }
                return true;
            }
            int ctxEnd = indexOf(key, (byte) 0, zero + 1);
            Context ctx = Context.of(new String(key, zero + 1, ctxEnd - zero - 1, StandardCharsets.UTF_8));
            if (query.context() != null && !query.context().equals(ctx)) {
                return true;
            }
            for (long[] entry : sortedEntries(key, value)) {
                SchemaId id = SchemaId.of(entry[0]);
                SchemaType type = SearchIndex.typeOf((byte) entry[1]);
                if ((query.type() != null && query.type() != type) || !tagged(ctx, id)) {
                    continue;
                }
                for (RegistryView.Usage u : view.usages().usages(ctx, id)) {
                    Optional<VersionRecord> v = view.version(u.subject(), u.version());
                    if (v.isPresent() && !offer(u.subject(), v.get(), type, kind, term)) {
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
                if (SearchIndex.holds(view.kv().get(SearchIndex.list(Kind.TAG.code(), SearchTerm.key(tag), ctx, id)), id)) {
                    return true;
                }
            }
            return false;
        }

        /** A hit if it passes the filters; false once the page is full (and one more hit was seen). */
        private boolean offer(Subject s, VersionRecord v, SchemaType type, Kind kind, String term) {
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
            SchemaType t = type != null ? type : view.schemaOf(s, v).map(StoredSchema::schemaType).orElse(SchemaType.AVRO);
            hits.add(new Hit(s, v.version(), v.schemaId(), t, kind, term, v.deleted()));
            return true;
        }
    }

    /** A list's entries (id, type letter) by id: a list is appended to in journal order. */
    static List<long[]> sortedEntries(byte[] key, byte[] list) {
        int n = SearchIndex.entries(list);
        long block = SearchIndex.block(key);
        List<long[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new long[] {SearchIndex.entryId(block, list, i), SearchIndex.entryType(list, i)});
        }
        out.sort((a, b) -> Long.compare(a[0], b[0]));
        return out;
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
}
