package io.quire.client.plan;

import io.quire.client.Compatibility;
import io.quire.client.ConfigAnswer;
import io.quire.client.RegisterRequest;
import io.quire.client.RegistryClient;
import io.quire.client.RegistryException;
import io.quire.client.SchemaVersion;
import io.quire.client.plan.DesiredSubject.DesiredReference;
import io.quire.client.plan.Plan.Action;
import io.quire.client.plan.Plan.Change;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Plans a folder against any registry that speaks Confluent's API. The registry decides equality
 * (its lookup, {@code POST /subjects/{s}}, normalising as the folder says), so formatting, key order
 * and the registry's own normalisation never show as a change; a new version is checked with the
 * registry's own compatibility endpoint and carries its messages. Subjects are planned referenced
 * first. Nothing is written.
 */
public final class Planner {

    /**
     * What a plan may do beyond registering: delete subjects the folder lacks (soft unless
     * permanent); {@code listedOnly} plans the given subjects and says nothing of the registry's
     * others (one resource's subject, not a whole folder).
     */
    public record Options(boolean allowDeletes, boolean permanent, boolean listedOnly) {
        public static final Options DEFAULT = new Options(false, false, false);
        /** The given subjects only: nothing is said of, or done to, any other. */
        public static final Options LISTED_ONLY = new Options(false, false, true);

        public Options(boolean allowDeletes, boolean permanent) {
            this(allowDeletes, permanent, false);
        }
    }

    private final RegistryClient registry;

    public Planner(RegistryClient registry) {
        this.registry = registry;
    }

    public Plan plan(List<DesiredSubject> desired, Options options) throws IOException, InterruptedException {
        List<DesiredSubject> ordered = referencedFirst(desired);
        Set<String> changing = new HashSet<>();
        List<Change> changes = new ArrayList<>();
        for (DesiredSubject d : ordered) {
            List<Integer> live = registry.versions(d.subject(), false);
            Integer latest = live.isEmpty() ? null : Collections.max(live);
            configChange(d, latest).ifPresent(changes::add);
            Change c = schemaChange(d, latest, changing);
            if (c.action() == Action.CREATE || c.action() == Action.NEW_VERSION) {
                changing.add(d.subject());
            }
            changes.add(c);
        }
        if (options.listedOnly()) {
            return new Plan(registry.base(), changes);
        }
        Set<String> wanted = new HashSet<>();
        Set<String> contexts = new TreeSet<>();
        for (DesiredSubject d : desired) {
            wanted.add(d.subject());
            contexts.add(contextOf(d.subject()));
        }
        contexts.add("");
        for (String s : registry.subjects(false)) {
            if (!wanted.contains(s) && contexts.contains(contextOf(s))) {
                Integer latest = registry.versions(s, false).stream().max(Integer::compare).orElse(null);
                changes.add(new Change(s, options.allowDeletes() ? Action.DELETE : Action.NOT_IN_FOLDER, latest, null,
                        null, null, null, null, null, null, options.allowDeletes() ? options.permanent() : null,
                        null, null, null));
            }
        }
        return new Plan(registry.base(), changes);
    }

    private Optional<Change> configChange(DesiredSubject d, Integer latest) throws IOException, InterruptedException {
        if (d.compatibility() == null && d.normalize() == null) {
            return Optional.empty();
        }
        Optional<ConfigAnswer> own = latest == null && registry.versions(d.subject(), true).isEmpty()
                ? Optional.empty() : registry.config(d.subject());
        String level = own.map(ConfigAnswer::compatibilityLevel).orElse(null);
        Boolean normalize = own.map(ConfigAnswer::normalize).orElse(null);
        boolean levelDiffers = d.compatibility() != null && !d.compatibility().equalsIgnoreCase(String.valueOf(level));
        boolean normalizeDiffers = d.normalize() != null && !d.normalize().equals(normalize);
        if (!levelDiffers && !normalizeDiffers) {
            return Optional.empty();
        }
        return Optional.of(new Change(d.subject(), Action.SET_CONFIG, latest, null, null, null, null,
                d.compatibility() == null ? null : d.compatibility().toUpperCase(), d.normalize(), level, null, null,
                d.file(), null));
    }

    private Change schemaChange(DesiredSubject d, Integer latest, Set<String> changing)
            throws IOException, InterruptedException {
        boolean waitsForThisPlan = d.references().stream().anyMatch(r -> r.latest() && changing.contains(r.subject()));
        RegisterRequest request;
        try {
            request = request(d, registry, waitsForThisPlan);
        } catch (RegistryException e) {
            return refused(d, latest, e.getMessage(), e.errorCode());
        }
        if (waitsForThisPlan) {
            // It names a version this plan creates: it changes with it, and is checked when applied.
            return change(d, latest == null ? Action.CREATE : Action.NEW_VERSION, latest, request,
                    List.of("references a version this plan creates: checked by the registry when applied"));
        }
        try {
            if (latest != null) {
                Optional<SchemaVersion> found = registry.lookup(d.subject(), request, d.normalized(), false);
                if (found.isPresent()) {
                    int v = found.get().version();
                    return new Change(d.subject(), v == latest ? Action.NONE : Action.OLDER_VERSION, latest, v, null,
                            null, null, null, null, null, null, v == latest ? null : List.of("the folder's schema is"
                            + " version " + v + "; the latest is " + latest + ": registering it again creates nothing,"
                            + " so apply leaves it (delete versions after " + v + " to make it the latest)"),
                            d.file(), null);
                }
            }
            Compatibility verdict = registry.compatibility(d.subject(), "latest", request, d.normalized());
            if (!verdict.compatible()) {
                return refused(d, latest, verdict.messagesOrEmpty().isEmpty()
                        ? "incompatible with the subject's versions" : String.join("; ", verdict.messagesOrEmpty()),
                        null);
            }
        } catch (RegistryException e) {
            if (e.status() == 404 && latest == null) { // a registry that checks nothing against no subject
                return change(d, Action.CREATE, null, request, List.of());
            }
            return refused(d, latest, e.getMessage(), e.errorCode());
        }
        return change(d, latest == null ? Action.CREATE : Action.NEW_VERSION, latest, request, List.of());
    }

    private static Change change(DesiredSubject d, Action action, Integer latest, RegisterRequest request,
                                 List<String> messages) {
        return new Change(d.subject(), action, latest, null, request, d.references(), d.normalized() ? true : null,
                null, null, null, null, messages.isEmpty() ? null : messages, d.file(), null);
    }

    /** A refusal: the registry's messages, and its error code (null: an incompatibility verdict). */
    private static Change refused(DesiredSubject d, Integer latest, String why, Integer errorCode) {
        return new Change(d.subject(), Action.REFUSED, latest, null, null, null, null, null, null, null, null,
                List.of(why), d.file(), errorCode == null || errorCode == 0 ? null : errorCode);
    }

    /**
     * The registration of a desired subject, its references resolved: a number as given, {@code latest}
     * as the registry's latest now ({@code pending}: a version this plan creates, left as latest).
     */
    static RegisterRequest request(DesiredSubject d, RegistryClient registry, boolean pending)
            throws IOException, InterruptedException {
        List<SchemaReference> refs = new ArrayList<>();
        for (DesiredReference r : d.references()) {
            int version;
            if (!r.latest()) {
                version = Integer.parseInt(r.version());
            } else {
                Optional<SchemaVersion> v = registry.version(r.subject(), "latest", false);
                if (v.isEmpty() && !pending) {
                    throw new RegistryException(404, 40401, d.file() + ": reference " + r.name() + " names subject "
                            + r.subject() + ", which has no version in the registry or the folder");
                }
                version = v.map(SchemaVersion::version).orElse(1);
            }
            refs.add(new SchemaReference(r.name(), Subject.of(r.subject()), Version.of(version)));
        }
        return new RegisterRequest(d.schema(), "AVRO".equals(d.schemaType()) ? null : d.schemaType(),
                refs.isEmpty() ? null : refs, null, null, d.metadata(), d.ruleSet());
    }

    /** The subjects ordered so that a subject comes after every subject of the folder it references. */
    static List<DesiredSubject> referencedFirst(List<DesiredSubject> desired) throws IOException {
        Map<String, DesiredSubject> bySubject = new LinkedHashMap<>();
        desired.forEach(d -> bySubject.put(d.subject(), d));
        List<DesiredSubject> out = new ArrayList<>();
        Map<String, Integer> state = new HashMap<>(); // 1 visiting, 2 done
        for (DesiredSubject d : desired) {
            visit(d, bySubject, state, out, new ArrayList<>());
        }
        return out;
    }

    private static void visit(DesiredSubject d, Map<String, DesiredSubject> all, Map<String, Integer> state,
                              List<DesiredSubject> out, List<String> path) throws IOException {
        Integer s = state.get(d.subject());
        if (s != null && s == 2) {
            return;
        }
        path.add(d.subject());
        if (s != null) {
            throw new IOException("references go round in a circle: " + String.join(" -> ", path));
        }
        state.put(d.subject(), 1);
        for (DesiredReference r : d.references()) {
            DesiredSubject target = all.get(r.subject());
            if (target != null) {
                visit(target, all, state, out, path);
            }
        }
        state.put(d.subject(), 2);
        path.remove(path.size() - 1);
        out.add(d);
    }

    /** The context a subject is in: "" for the default one, ".name" for {@code :.name:subject}. */
    static String contextOf(String subject) {
        if (subject.startsWith(":.") && subject.indexOf(':', 2) > 0) {
            return subject.substring(1, subject.indexOf(':', 2));
        }
        return "";
    }
}
