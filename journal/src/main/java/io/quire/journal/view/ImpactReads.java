package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * "What would this touch": the subject versions whose content defines a record (or a field of
 * one), and those that use such content through references, as far as references go. A change to
 * the shared record reaches every one of them.
 */
public final class ImpactReads {

    /** How many subject versions an answer names at most; past it the answer says it was cut short. */
    public static final int MAX_USES = 10_000;

    private final RegistryView view;

    public ImpactReads(RegistryView view) {
        this.view = view;
    }

    /**
     * One subject version the change touches.
     *
     * @param path where the record or field is, in the content that defines it
     * @param via the chain of subject versions referenced on the way, from the one that defines
     *     it; empty when this version's own content defines it
     */
    public record Use(Subject subject, Version version, SchemaId id, String path, boolean deleted, List<Step> via) {
    }

    /** A subject version on the way through references. */
    public record Step(Subject subject, Version version) {
    }

    public record Impact(List<Use> uses, boolean cutShort) {
    }

    /**
     * The uses of a record ({@code kind} RECORD: a full name, or a bare one for every namespace) or
     * a field (FIELD: {@code record.field} with the record's full name, or a field name alone);
     * {@code paths} says where each candidate content has the name.
     */
    public Impact of(SearchTerm.Kind kind, String name, boolean deleted, Predicate<Subject> visible, TermPaths paths) {
        String lower = name.toLowerCase(Locale.ROOT);
        int dot = lower.lastIndexOf('.');
        String term = dot >= 0 ? lower.substring(dot + 1) : lower;
        boolean qualified = dot >= 0;
        List<Use> out = new ArrayList<>();
        ArrayDeque<Use> queue = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        view.kv().scan(SearchIndex.termPrefix(kind.code(), term), (k, v) -> {
            int zero = SearchReads.indexOf(k, (byte) 0, 2);
            int ctxEnd = SearchReads.indexOf(k, (byte) 0, zero + 1);
            Context ctx = Context.of(new String(k, zero + 1, ctxEnd - zero - 1, StandardCharsets.UTF_8));
            for (long[] entry : SearchReads.sortedEntries(k, v)) {
                SchemaId id = SchemaId.of(entry[0]);
                Optional<StoredSchema> schema = view.schema(ctx, id);
                if (schema.isEmpty()) {
                    continue;
                }
                for (SearchTerm place : paths.of(schema.get(), kind, term)) {
                    if (!qualified || place.path().toLowerCase(Locale.ROOT).equals(lower)) {
                        for (RegistryView.Usage u : view.usages().usages(ctx, id)) {
                            queue.add(new Use(u.subject(), u.version(), id, place.path(), false, List.of()));
                        }
                    }
                }
            }
            return true;
        });
        boolean cutShort = false;
        while (!queue.isEmpty()) {
            Use use = queue.poll();
            if (!seen.add(use.subject().name() + '\0' + use.version().number())) {
                continue;
            }
            Optional<VersionRecord> record = view.version(use.subject(), use.version());
            if (record.isEmpty()) {
                continue;
            }
            if (out.size() >= MAX_USES) {
                cutShort = true;
                break;
            }
            if ((deleted || !record.get().deleted()) && visible.test(use.subject())) {
                out.add(new Use(use.subject(), use.version(), use.id(), use.path(), record.get().deleted(), use.via()));
            }
            List<Step> via = new ArrayList<>(use.via());
            via.add(new Step(use.subject(), use.version()));
            Context ctx = use.subject().context();
            for (SchemaId referrer : view.usages().referencedBy(use.subject(), use.version())) {
                for (RegistryView.Usage u : view.usages().usages(ctx, referrer)) {
                    queue.add(new Use(u.subject(), u.version(), referrer, use.path(), false, List.copyOf(via)));
                }
            }
        }
        return new Impact(out, cutShort);
    }
}
