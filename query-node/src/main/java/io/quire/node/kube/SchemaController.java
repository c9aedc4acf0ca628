package io.quire.node.kube;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quire.client.RegistryClient;
import io.quire.client.plan.Plan;
import io.quire.client.plan.PlanApply;
import io.quire.node.kube.SchemaReconcile.Reason;
import io.quire.node.kube.SchemaReconcile.Result;
import io.quire.node.metrics.QuireMetrics;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches {@link Schema} resources (and the ConfigMaps that hold their text) and reconciles each
 * one on a single worker, one resource at a time: a change to a resource, to its ConfigMap, to a
 * resource it references, and every resync period (so that a version registered outside the
 * resource shows in its status) queue it; a failure that may pass (a reference not there yet, the
 * registry unreachable) is tried again with a back-off. Statuses are written only when they say
 * something new, so a restart or a resync changes nothing. Runs only on the node that holds the
 * reconciler's lease ({@link SchemaResources}).
 */
final class SchemaController implements AutoCloseable {

    static final String FINALIZER = "schemas.quire.io/subject";

    private static final Logger LOG = LoggerFactory.getLogger(SchemaController.class);

    private final KubernetesClient client;
    private final String namespace;
    private final long resyncMs;
    private final RegistryClient registry;
    private final QuireMetrics metrics;
    private final String component;
    private final LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retries;
    private final Thread worker;
    private SharedIndexInformer<Schema> schemas;
    private SharedIndexInformer<ConfigMap> configMaps;
    private volatile boolean running = true;

    SchemaController(KubernetesClient client, String namespace, long resyncMs, RegistryClient registry,
                     QuireMetrics metrics, String nodeId) {
        this.client = client;
        this.namespace = namespace;
        this.resyncMs = resyncMs;
        this.registry = registry;
        this.metrics = metrics;
        this.component = "quire/" + nodeId;
        this.retries = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "quire-schemas-retry"));
        this.worker = daemon(this::work, "quire-schemas");
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private MixedOperation<Schema, KubernetesResourceList<Schema>, Resource<Schema>> resources() {
        return client.resources(Schema.class);
    }

    SchemaController start() {
        boolean all = "*".equals(namespace);
        // Started without waiting for the first list, and kept retrying while the API server cannot be
        // reached, so that the lease's renewals never wait on Kubernetes.
        schemas = (all ? resources().inAnyNamespace() : resources().inNamespace(namespace)).runnableInformer(resyncMs);
        schemas.addEventHandler(handler(s -> enqueue(key(s.getMetadata().getNamespace(), s.getMetadata().getName()))));
        configMaps = (all ? client.configMaps().inAnyNamespace() : client.configMaps().inNamespace(namespace))
                .runnableInformer(0);
        configMaps.addEventHandler(handler(this::configMapChanged));
        for (SharedIndexInformer<?> i : List.of(schemas, configMaps)) {
            i.exceptionHandler((started, t) -> {
                LOG.warn("watching the Kubernetes API failed; trying again: {}", t.toString());
                return true;
            });
            i.start();
        }
        worker.start();
        LOG.info("reconciling Schema resources in {}", all ? "every namespace" : "namespace " + namespace);
        return this;
    }

    private static <T> ResourceEventHandler<T> handler(Consumer<T> changed) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                changed.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                changed.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                changed.accept(obj);
            }
        };
    }

    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    void enqueue(String key) {
        if (queued.add(key)) {
            queue.add(key);
        }
    }

    private void configMapChanged(ConfigMap map) {
        String ns = map.getMetadata().getNamespace();
        String name = map.getMetadata().getName();
        for (Schema s : schemas.getStore().list()) {
            SchemaSpec spec = s.getSpec();
            if (ns.equals(s.getMetadata().getNamespace()) && spec != null && spec.schemaFrom != null
                    && spec.schemaFrom.configMapKeyRef != null
                    && name.equals(spec.schemaFrom.configMapKeyRef.getName())) {
                enqueue(key(ns, s.getMetadata().getName()));
            }
        }
    }

    /** The resources of the namespace that reference {@code name} through schemaRef: queued when it lands. */
    private void referencesChanged(String ns, String name) {
        for (Schema s : schemas.getStore().list()) {
            if (ns.equals(s.getMetadata().getNamespace()) && s.getSpec() != null && s.getSpec().references != null
                    && s.getSpec().references.stream().anyMatch(r -> name.equals(r.schemaRef))) {
                enqueue(key(ns, s.getMetadata().getName()));
            }
        }
    }

    private void work() {
        while (running) {
            String key;
            try {
                // nothing is decided on a partial picture (a ConfigMap or a referenced resource not listed yet)
                while (running && !synced()) {
                    Thread.sleep(50);
                }
                key = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            queued.remove(key);
            try {
                process(key);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("Schema {}: reconcile failed: {}", key, e.toString());
                retryLater(key);
            }
        }
    }

    private void retryLater(String key) {
        int n = failures.merge(key, 1, Integer::sum);
        long delay = Math.min(30_000, 500L << Math.min(n - 1, 6));
        if (!retries.isShutdown()) {
            retries.schedule(() -> enqueue(key), delay, TimeUnit.MILLISECONDS);
        }
    }

    private final SchemaReconcile.Lookup lookup = new SchemaReconcile.Lookup() {
        @Override
        public Schema schema(String ns, String name) {
            return schemas.getStore().getByKey(key(ns, name));
        }

        @Override
        public ConfigMap configMap(String ns, String name) {
            return configMaps.getStore().getByKey(key(ns, name));
        }
    };

    void process(String key) throws InterruptedException {
        Schema r = schemas.getStore().getByKey(key);
        if (r == null || !running) {
            failures.remove(key);
            return;
        }
        if (r.getMetadata().getDeletionTimestamp() != null) {
            finish(r);
            return;
        }
        SchemaSpec.DeletionPolicy policy = policy(r);
        if (policy != SchemaSpec.DeletionPolicy.Keep && !r.hasFinalizer(FINALIZER)) {
            r = edit(r, s -> s.addFinalizer(FINALIZER));
        } else if (policy == SchemaSpec.DeletionPolicy.Keep && r.hasFinalizer(FINALIZER)) {
            r = edit(r, s -> s.removeFinalizer(FINALIZER));
        }
        if (r == null) {
            return;
        }
        Result result = new SchemaReconcile(registry, lookup).reconcile(r);
        metrics.schemaReconciled(result.reason().name());
        if (result.status() != null) {
            writeStatus(r, result);
        }
        if (result.retry()) {
            retryLater(key);
        } else {
            failures.remove(key);
        }
    }

    private static SchemaSpec.DeletionPolicy policy(Schema r) {
        return r.getSpec() == null || r.getSpec().deletionPolicy == null ? SchemaSpec.DeletionPolicy.Keep
                : r.getSpec().deletionPolicy;
    }

    /** A resource being deleted: its subject deleted as its policy says, then its finalizer removed. */
    private void finish(Schema r) throws InterruptedException {
        if (!r.hasFinalizer(FINALIZER)) {
            return;
        }
        SchemaSpec.DeletionPolicy policy = policy(r);
        String subject = r.subject();
        if (policy != SchemaSpec.DeletionPolicy.Keep) {
            boolean permanent = policy == SchemaSpec.DeletionPolicy.Delete;
            try {
                List<Integer> live = registry.versions(subject, false);
                List<Integer> any = permanent ? registry.versions(subject, true) : live;
                if (!any.isEmpty()) {
                    Integer latest = live.isEmpty() ? null : Collections.max(live);
                    Plan plan = new Plan(registry.base(), List.of(new Plan.Change(subject, Plan.Action.DELETE, latest,
                            null, null, null, null, null, null, null, permanent, null,
                            "Schema " + key(r.getMetadata().getNamespace(), r.getMetadata().getName()), null)));
                    PlanApply.Result done = new PlanApply(registry).apply(plan, SchemaReconcile.change(r));
                    if (!done.ok()) {
                        event(r, "Warning", "DeleteFailed", "deleting subject " + subject + ": " + done.failure());
                        retryLater(key(r.getMetadata().getNamespace(), r.getMetadata().getName()));
                        return;
                    }
                    event(r, "Normal", permanent ? "Deleted" : "SoftDeleted", "subject " + subject
                            + (permanent ? " deleted permanently" : " soft-deleted"));
                }
            } catch (IOException e) {
                event(r, "Warning", "DeleteFailed", "deleting subject " + subject + ": " + e);
                retryLater(key(r.getMetadata().getNamespace(), r.getMetadata().getName()));
                return;
            }
        }
        edit(r, s -> s.removeFinalizer(FINALIZER));
    }

    /** Changes the resource's metadata; null when it is gone. */
    private Schema edit(Schema r, Consumer<Schema> change) {
        try {
            return resources().inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName())
                    .edit(s -> {
                        change.accept(s);
                        return s;
                    });
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    private void writeStatus(Schema r, Result result) {
        SchemaStatus old = r.getStatus();
        SchemaStatus next = result.status();
        next.conditions = new ArrayList<>(List.of(SchemaReconcile.condition(result, old,
                SchemaReconcile.generation(r), Instant.now())));
        if (next.sameAs(old)) {
            return;
        }
        Schema updated = new Schema();
        updated.setMetadata(r.getMetadata());
        updated.setSpec(r.getSpec());
        updated.setStatus(next);
        try {
            resources().inNamespace(r.getMetadata().getNamespace()).resource(updated).updateStatus();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) { // changed meanwhile: its update is queued and decides again
                enqueue(key(r.getMetadata().getNamespace(), r.getMetadata().getName()));
                return;
            }
            if (e.getCode() == 404) {
                return;
            }
            throw e;
        }
        Reason reason = result.reason();
        boolean changed = old == null || old.condition(SchemaReconcile.SYNCED) == null
                || !reason.name().equals(old.condition(SchemaReconcile.SYNCED).getReason())
                || !Objects.equals(old.version, next.version);
        if (changed) {
            String eventReason = result.registered() != null ? "Registered" : result.adopted() ? "Adopted"
                    : reason.name();
            String message = result.registered() != null ? "registered " + next.subject + " version "
                    + result.registered() + " (id " + next.id + ")" : result.adopted() ? "the registry already held this"
                    + " schema as " + next.subject + " version " + next.version + " (id " + next.id + "): adopted"
                    : result.message();
            event(r, reason.synced ? "Normal" : "Warning", eventReason, message);
            if (reason.synced) {
                referencesChanged(r.getMetadata().getNamespace(), r.getMetadata().getName());
            }
        }
    }

    /** A Kubernetes event on the resource; one that cannot be written is only logged. */
    private void event(Schema r, String type, String reason, String message) {
        try {
            String ns = r.getMetadata().getNamespace();
            String now = Instant.now().toString();
            client.v1().events().inNamespace(ns).resource(new EventBuilder()
                    .withNewMetadata().withGenerateName(r.getMetadata().getName() + ".").withNamespace(ns).endMetadata()
                    .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(r.getApiVersion())
                            .withKind(r.getKind()).withNamespace(ns).withName(r.getMetadata().getName())
                            .withUid(r.getMetadata().getUid()).withResourceVersion(r.getMetadata().getResourceVersion())
                            .build())
                    .withType(type).withReason(reason).withMessage(message == null ? "" : message)
                    .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent(component).endSource()
                    .build()).create();
        } catch (KubernetesClientException e) {
            LOG.debug("event {} on {} not written: {}", reason, r.getMetadata().getName(), e.toString());
        }
    }

    /** Whether the informers have listed what is there (tests wait for it). */
    boolean synced() {
        return schemas != null && schemas.hasSynced() && configMaps.hasSynced();
    }

    @Override
    public void close() {
        running = false;
        worker.interrupt();
        retries.shutdownNow();
        if (schemas != null) {
            schemas.close();
        }
        if (configMaps != null) {
            configMaps.close();
        }
    }
}
