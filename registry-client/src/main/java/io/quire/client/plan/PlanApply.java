package io.quire.client.plan;

import io.quire.client.ChangeSetAnswer;
import io.quire.client.ChangeSetRequest;
import io.quire.client.ConfigRequest;
import io.quire.client.RegisterRequest;
import io.quire.client.RegisteredId;
import io.quire.client.RegistryClient;
import io.quire.client.RegistryException;
import io.quire.client.plan.Plan.Action;
import io.quire.client.plan.Plan.Change;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies a plan. To a Quire node, as one change set ({@code POST /changesets}): every change lands
 * or none does, each subject's latest version as planned is the precondition, and the change's id
 * and message go into the audit trail. To any other registry that speaks Confluent's API, one call
 * at a time in the plan's order (settings, then referenced subjects before the subjects that
 * reference them), saying exactly what landed where it stops; a saved plan is applied there only if
 * every subject it changes still has the latest version the plan saw.
 */
public final class PlanApply {

    /**
     * What was done: each change that landed, and the one that failed with why (null: none);
     * {@code atomic} when it went as one change set (a failure then landed nothing), and the
     * change's id there; {@code errorCode} the registry's error code of the failure (null: none, or
     * the registry could not be reached).
     */
    public record Result(List<Landed> landed, Change failed, String failure, boolean atomic, String changeId,
                         Integer errorCode) {

        public boolean ok() {
            return failed == null;
        }
    }

    /** A change that landed: for a registration, the id and version the registry gave. */
    public record Landed(Change change, Long id, Integer version) {
    }

    private final RegistryClient registry;

    public PlanApply(RegistryClient registry) {
        this.registry = registry;
    }

    /**
     * The subjects whose latest version moved since the plan was made, each with what the plan saw
     * and what the registry has now; empty when the plan may be applied.
     */
    public List<String> moved(Plan plan) throws IOException, InterruptedException {
        List<String> out = new ArrayList<>();
        for (Change c : plan.changes()) {
            if (!c.changes()) {
                continue;
            }
            List<Integer> live = registry.versions(c.subject(), false);
            Integer now = live.isEmpty() ? null : Collections.max(live);
            if (!java.util.Objects.equals(now, c.latestVersion())) {
                out.add(c.subject() + ": the plan saw " + (c.latestVersion() == null ? "no version" : "version "
                        + c.latestVersion()) + ", the registry has " + (now == null ? "none" : "version " + now));
            }
        }
        return out;
    }

    /**
     * Applies the plan as one change set where the registry takes one (a Quire node), else one call
     * at a time.
     */
    public Result apply(Plan plan, ChangeInfo change) throws InterruptedException {
        List<Change> changes = plan.changes().stream().filter(Change::changes).toList();
        if (changes.isEmpty()) {
            return new Result(List.of(), null, null, false, null, null);
        }
        Optional<ChangeSetAnswer> answer;
        try {
            answer = registry.applyChangeSet(changeSet(changes, change));
        } catch (RegistryException e) {
            return new Result(List.of(), failedStep(changes, e.getMessage()), e.getMessage(), true, change.id(),
                    e.errorCode());
        } catch (IOException e) {
            return new Result(List.of(), changes.get(0), e.getMessage(), true, change.id(), null);
        }
        if (answer.isEmpty()) {
            return apply(plan);
        }
        List<Landed> landed = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            ChangeSetAnswer.StepAnswer a = answer.get().steps().get(i);
            landed.add(new Landed(changes.get(i), a.id() == null ? null : a.id().longValue(), a.version()));
        }
        return new Result(landed, null, null, true, answer.get().id(), null);
    }

    /** The change a refusal names ("step N of M"), else the first. */
    private static Change failedStep(List<Change> changes, String message) {
        Matcher m = Pattern.compile("step (\\d+) of \\d+").matcher(message);
        if (m.find()) {
            int step = Integer.parseInt(m.group(1));
            if (step >= 1 && step <= changes.size()) {
                return changes.get(step - 1);
            }
        }
        return changes.get(0);
    }

    /**
     * The plan's changes as one change set: each subject's latest version as planned expected, and
     * references to {@code latest} left as -1, which the node resolves as the set is built (a version
     * an earlier step makes included).
     */
    static ChangeSetRequest changeSet(List<Change> changes, ChangeInfo change) throws IOException, InterruptedException {
        List<ChangeSetRequest.Expected> expect = new ArrayList<>();
        Set<String> named = new HashSet<>();
        List<ChangeSetRequest.Step> steps = new ArrayList<>();
        for (Change c : changes) {
            if (named.add(c.subject())) {
                expect.add(new ChangeSetRequest.Expected(c.subject(), c.latestVersion()));
            }
            if (c.action() == Action.SET_CONFIG) {
                steps.add(ChangeSetRequest.Step.config(c.subject(), new ConfigRequest(c.compatibility(),
                        c.setNormalize(), null)));
            } else if (c.action() == Action.CLEAR_CONFIG) {
                steps.add(ChangeSetRequest.Step.deleteConfig(c.subject()));
            } else if (c.action() == Action.DELETE) {
                steps.add(ChangeSetRequest.Step.delete(c.subject(), Boolean.TRUE.equals(c.permanent())));
            } else {
                steps.add(ChangeSetRequest.Step.register(c.subject(), withReferences(c, d -> d.latest()
                        ? Version.LATEST : Version.of(Integer.parseInt(d.version()))),
                        Boolean.TRUE.equals(c.normalize())));
            }
        }
        return new ChangeSetRequest(change.id(), change.message(), expect, steps);
    }

    /** One call at a time, in the plan's order: what landed, and where it stopped. */
    public Result apply(Plan plan) throws InterruptedException {
        List<Landed> landed = new ArrayList<>();
        for (Change c : plan.changes()) {
            if (!c.changes()) {
                continue;
            }
            try {
                landed.add(apply(c));
            } catch (IOException e) {
                return new Result(landed, c, e.getMessage(), false, null,
                        e instanceof RegistryException re ? re.errorCode() : null);
            }
        }
        return new Result(landed, null, null, false, null, null);
    }

    private Landed apply(Change c) throws IOException, InterruptedException {
        if (c.action() == Action.SET_CONFIG) {
            registry.setConfig(c.subject(), new ConfigRequest(c.compatibility(), c.setNormalize(), null));
            return new Landed(c, null, null);
        }
        if (c.action() == Action.CLEAR_CONFIG) {
            registry.deleteConfig(c.subject());
            return new Landed(c, null, null);
        }
        if (c.action() == Action.DELETE) {
            registry.deleteSubject(c.subject(), false);
            if (Boolean.TRUE.equals(c.permanent())) {
                registry.deleteSubject(c.subject(), true);
            }
            return new Landed(c, null, null);
        }
        RegisteredId id = registry.register(c.subject(), resolved(c), Boolean.TRUE.equals(c.normalize()));
        Integer version = id.version();
        if (version == null) { // a registry that does not say: the version holding that id now
            version = registry.lookup(c.subject(), resolved(c), Boolean.TRUE.equals(c.normalize()), false)
                    .map(v -> v.version()).orElse(null);
        }
        return new Landed(c, id.id(), version);
    }

    /** The change's registration with its {@code latest} references resolved to the versions there now. */
    private RegisterRequest resolved(Change c) throws IOException, InterruptedException {
        return withReferences(c, d -> Version.of(d.latest() ? registry.version(d.subject(), "latest", false)
                .orElseThrow(() -> new RegistryException(404, 40401, "reference " + d.name() + ": subject "
                        + d.subject() + " has no version")).version() : Integer.parseInt(d.version())));
    }

    /** How a reference's version is settled. */
    @FunctionalInterface
    private interface VersionOf {
        Version of(DesiredSubject.DesiredReference reference) throws IOException, InterruptedException;
    }

    /** The change's registration with its references' versions settled by {@code versionOf}. */
    private static RegisterRequest withReferences(Change c, VersionOf versionOf)
            throws IOException, InterruptedException {
        RegisterRequest r = c.request();
        if (c.references() == null || c.references().isEmpty()) {
            return r;
        }
        List<SchemaReference> refs = new ArrayList<>();
        for (DesiredSubject.DesiredReference d : c.references()) {
            refs.add(new SchemaReference(d.name(), Subject.of(d.subject()), versionOf.of(d)));
        }
        return new RegisterRequest(r.schema(), r.schemaType(), refs, r.id(), r.version(), r.metadata(), r.ruleSet());
    }
}
