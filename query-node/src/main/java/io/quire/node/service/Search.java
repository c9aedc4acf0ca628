package io.quire.node.service;

import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.Subject;
import io.quire.journal.view.ImpactReads;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SearchReads;
import io.quire.node.api.SchemaVersion;
import io.quire.node.error.RegistryException;
import io.quire.node.search.SchemaTerms;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Search over the view's index (Quire's extension, docs/search.md): {@code GET /search}, the
 * impact of a change to a record or field, and the {@code ?tags=} filters of {@code /subjects} and
 * {@code /schemas}. Every answer holds only the subjects the caller may read.
 */
public final class Search {

    /** The most hits a tag filter of a list gathers before it pages them. */
    static final int MAX_TAGGED = 100_000;

    private final ViewAccess access;

    public Search(ViewAccess access) {
        this.access = access;
    }

    /** One hit: the subject version, its content's id and type, the term found as the schema spells it, and where. */
    public record Hit(String subject, int version, long id, String schemaType, String kind, String term,
                      List<String> paths, boolean deleted) {
    }

    /** A page of hits; {@code more}: hits past it; {@code cutShort}: the query met a limit of its work. */
    public record Results(String q, List<Hit> hits, int offset, int limit, boolean more, boolean cutShort) {
    }

    /** One subject version a change touches, {@code via} the subject versions it references on the way. */
    public record Use(String subject, int version, long id, String path, boolean deleted, List<String> via) {
    }

    public record Impact(String kind, String name, List<Use> uses, boolean cutShort) {
    }

    /** The filters of a query, as the request gave them (null: not given). */
    public record Filters(List<String> kinds, List<String> tags, String schemaType, String subjectPrefix, String context,
                          boolean latestOnly, boolean deleted) {
    }

    public Results search(String q, Filters f, Predicate<Subject> visible, int offset, int limit) {
        boolean noTerm = q == null || q.isBlank();
        if (noTerm && f.tags().isEmpty()) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "give a term to search for (q) or a tag (tag)");
        }
        if (!noTerm && q.length() > SearchTerm.MAX_TERM) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "q is longer than " + SearchTerm.MAX_TERM + " characters");
        }
        Set<SearchTerm.Kind> kinds = EnumSet.noneOf(SearchTerm.Kind.class);
        for (String k : f.kinds()) {
            try {
                kinds.add(SearchTerm.Kind.ofLabel(k));
            } catch (IllegalArgumentException e) {
                throw new RegistryException(ErrorCode.UNPROCESSABLE, e.getMessage());
            }
        }
        RegistryView view = access.view();
        SearchReads.Page page = new SearchReads(view).search(new SearchReads.Query(noTerm ? null : q.strip(),
                kinds, f.tags(), type(f.schemaType()), f.subjectPrefix(), context(f.context()), f.latestOnly(),
                f.deleted(), visible, offset, limit));
        Map<String, List<SearchTerm>> places = new HashMap<>(); // a content's terms, read once a page
        List<Hit> hits = new ArrayList<>(page.hits().size());
        for (SearchReads.Hit h : page.hits()) {
            if (h.kind() == SearchTerm.Kind.SUBJECT) {
                hits.add(new Hit(h.subject().name(), h.version().number(), h.id().value(), h.schemaType().name(),
                        h.kind().label(), h.key(), List.of(h.subject().name()), h.deleted()));
                continue;
            }
            List<SearchTerm> found = places.computeIfAbsent(h.subject().context().name() + '\0' + h.id().value(),
                    c -> view.schema(h.subject().context(), h.id()).map(SchemaTerms::ofStored).orElse(List.of()))
                    .stream().filter(t -> t.kind() == h.kind() && t.key().equals(h.key())).toList();
            hits.add(new Hit(h.subject().name(), h.version().number(), h.id().value(), h.schemaType().name(),
                    h.kind().label(), found.isEmpty() ? h.key() : found.get(0).term(),
                    found.stream().map(SearchTerm::path).distinct().toList(), h.deleted()));
        }
        return new Results(noTerm ? null : q.strip(), hits, offset, limit, page.more(), page.cutShort());
    }

    /** Who uses a record ({@code record}: its full name or its name) or a field ({@code field}: record.field or a name). */
    public Impact impact(String record, String field, boolean deleted, Predicate<Subject> visible) {
        boolean byRecord = record != null && !record.isBlank();
        if (byRecord == (field != null && !field.isBlank())) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "give one of record or field");
        }
        SearchTerm.Kind kind = byRecord ? SearchTerm.Kind.RECORD : SearchTerm.Kind.FIELD;
        String name = (byRecord ? record : field).strip();
        ImpactReads.Impact impact = new ImpactReads(access.view()).of(kind, name, deleted, visible, SchemaTerms.PATHS);
        List<Use> uses = impact.uses().stream().map(u -> new Use(u.subject().name(), u.version().number(),
                u.id().value(), u.path(), u.deleted(), u.via().stream()
                .map(s -> s.subject().name() + "/" + s.version().number()).toList())).toList();
        return new Impact(kind.label(), name, uses, impact.cutShort());
    }

    /**
     * {@code GET /subjects?tags=}: the subjects whose latest live version carries one of the tags,
     * in the index's order (by tag, then content id: about the order they were registered in), so
     * that a page stops once it is full; {@code limit} -1: all.
     */
    public List<String> taggedSubjects(List<String> tags, String prefix, Predicate<Subject> visible, int offset,
                                       int limit) {
        LinkedHashSet<String> subjects = new LinkedHashSet<>();
        for (SearchReads.Hit h : tagged(tags, prefix, true, false, visible, wanted(tags, offset, limit))) {
            subjects.add(h.subject().name());
        }
        return page(new ArrayList<>(subjects), offset, limit);
    }

    /** {@code GET /schemas?tags=}: the versions whose content carries one of the tags, in the index's order. */
    public List<SchemaVersion> taggedSchemas(List<String> tags, String prefix, boolean deleted, boolean latestOnly,
                                             Predicate<Subject> visible, int offset, int limit) {
        LinkedHashMap<String, SearchReads.Hit> versions = new LinkedHashMap<>();
        for (SearchReads.Hit h : tagged(tags, prefix, latestOnly, deleted, visible, wanted(tags, offset, limit))) {
            versions.putIfAbsent(h.subject().name() + '\0' + h.version().number(), h);
        }
        RegistryView view = access.view();
        List<SchemaVersion> out = new ArrayList<>();
        for (SearchReads.Hit h : page(new ArrayList<>(versions.values()), offset, limit)) {
            view.version(h.subject(), h.version()).ifPresent(v -> view.schemaOf(h.subject(), v)
                    .ifPresent(s -> out.add(SubjectReads.toApi(h.subject(), v, s))));
        }
        return out;
    }

    /** How many hits a page of a tag list needs: a version carrying several of the tags is a hit for each. */
    private static int wanted(List<String> tags, int offset, int limit) {
        return limit < 0 ? MAX_TAGGED : (int) Math.min(MAX_TAGGED, ((long) offset + limit) * Math.max(1, tags.size()));
    }

    private List<SearchReads.Hit> tagged(List<String> tags, String prefix, boolean latestOnly, boolean deleted,
                                         Predicate<Subject> visible, int hits) {
        return new SearchReads(access.view()).search(new SearchReads.Query(null, Set.of(), tags, null, prefix, null,
                latestOnly, deleted, visible, 0, hits)).hits();
    }

    private static <T> List<T> page(List<T> all, int offset, int limit) {
        if (offset >= all.size()) {
            return List.of();
        }
        return all.subList(offset, limit < 0 ? all.size() : (int) Math.min(all.size(), (long) offset + limit));
    }

    private static SchemaType type(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        try {
            return SchemaType.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "schemaType must be AVRO, JSON or PROTOBUF");
        }
    }

    private static Context context(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        try {
            return Context.parse(name);
        } catch (IllegalArgumentException e) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, e.getMessage());
        }
    }
}
