package io.quire.client.plan;

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
import java.util.List;

/**
 * Applies a plan to any registry that speaks Confluent's API, one call at a time in the plan's
 * order (settings, then referenced subjects before the subjects that reference them), and says
 * exactly what landed where it stops. A saved plan is applied only if every subject it changes still
 * has the latest version the plan saw.
 */
public final class PlanApply {

    /** What was done: each change that landed, and the one that failed with why (null: none). */
    public record Result(List<Landed> landed, Change failed, String failure) {

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

    public Result apply(Plan plan) throws InterruptedException {
        List<Landed> landed = new ArrayList<>();
        for (Change c : plan.changes()) {
            if (!c.changes()) {
                continue;
            }
            try {
                landed.add(apply(c));
            } catch (IOException e) {
                return new Result(landed, c, e.getMessage());
            }
        }
        return new Result(landed, null, null);
    }

    private Landed apply(Change c) throws IOException, InterruptedException {
        if (c.action() == Action.SET_CONFIG) {
            registry.setConfig(c.subject(), new ConfigRequest(c.compatibility(), c.setNormalize(), null));
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
        RegisterRequest r = c.request();
        if (c.references() == null || c.references().isEmpty()) {
            return r;
        }
        List<SchemaReference> refs = new ArrayList<>();
        for (DesiredSubject.DesiredReference d : c.references()) {
            int version = d.latest() ? registry.version(d.subject(), "latest", false)
                    .orElseThrow(() -> new RegistryException(404, 40401, "reference " + d.name() + ": subject "
                            + d.subject() + " has no version")).version() : Integer.parseInt(d.version());
            refs.add(new SchemaReference(d.name(), Subject.of(d.subject()), Version.of(version)));
        }
        return new RegisterRequest(r.schema(), r.schemaType(), refs, r.id(), r.version(), r.metadata(), r.ruleSet());
    }
}
