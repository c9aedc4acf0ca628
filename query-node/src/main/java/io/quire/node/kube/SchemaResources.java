package io.quire.node.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.quire.client.RegistryClient;
import io.quire.journal.command.TakeLease;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.LeaseTaken;
import io.quire.node.config.QuireConfig;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On every node where the Schema resources' reconciler is enabled: exactly one node reconciles at a
 * time, the one holding the journaled lease {@value #TASK} ({@link TakeLease}, granted under the
 * exporters' rule in journal order). The holder renews it every third of its length and runs the
 * {@link SchemaController}; a node that cannot renew stops reconciling before its lease can run
 * out, and another node takes the lease once it has (a killed node's work moves within one lease).
 * Nothing runs where the node takes no writes (a follower region), nor before the node has caught
 * up with the journal.
 */
public final class SchemaResources implements AutoCloseable {

    /** The lease's name in the journal. */
    public static final String TASK = "schema-resources";

    static final Principal PRINCIPAL = Principal.of("schema-resources");

    private static final Logger LOG = LoggerFactory.getLogger(SchemaResources.class);

    /** What the node's settings say about the reconciler. */
    public record Settings(String apiUrl, String namespace, long leaseMs, long resyncMs, String registryUrl,
                           String authorization) {
    }

    private final String nodeId;
    private final ViewAccess access;
    private final JournalPort journal;
    private final Settings settings;
    private final QuireMetrics metrics;
    private final BooleanSupplier ready;
    private final ScheduledExecutorService ticks;
    private final KubernetesClient client;
    private volatile SchemaController controller;
    /** Until when (this node's clock) the lease is surely this node's; 0 when it is not. */
    private volatile long heldUntil;
    private volatile boolean closed;

    /** {@code ready}: whether the node has caught up with the journal; it reconciles only then. */
    public SchemaResources(String nodeId, ViewAccess access, JournalPort journal, Settings settings,
                           QuireMetrics metrics, BooleanSupplier ready) {
        this.nodeId = nodeId;
        this.access = access;
        this.journal = journal;
        this.settings = settings;
        this.metrics = metrics;
        this.ready = ready;
        this.ticks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quire-schemas-lease");
            t.setDaemon(true);
            return t;
        });
        this.client = new KubernetesClientBuilder().withConfig(config(settings)).build();
        metrics.bindSchemaLease(this::leader);
    }

    /** The reconciler's settings from the node's: its registry is this node unless another URL is given. */
    public static Settings settings(QuireConfig config, int port) throws IOException {
        QuireConfig.Kubernetes k = config.kubernetes();
        String host = config.host().equals("0.0.0.0") || config.host().equals("::") ? "127.0.0.1" : config.host();
        String url = !k.registryUrl().isEmpty() ? k.registryUrl()
                : (config.security().tls() ? "https://" : "http://") + host + ":" + port;
        String authorization = k.authorizationFile().isEmpty() ? null
                : Files.readString(Path.of(k.authorizationFile())).strip();
        return new Settings(k.apiUrl(), k.namespace(), k.leaseMs(), k.resyncMs(), url, authorization);
    }

    /** The Kubernetes client's settings: the API URL given, else in-cluster or kubeconfig as fabric8 finds them. */
    static Config config(Settings s) {
        return s.apiUrl().isEmpty() ? Config.autoConfigure(null)
                : new ConfigBuilder(Config.empty()).withMasterUrl(s.apiUrl()).build();
    }

    /** The namespace reconciled: the one given, {@code *} for all, else the client's (the pod's own). */
    String namespace() {
        if (!settings.namespace().isEmpty()) {
            return settings.namespace();
        }
        String ns = client.getNamespace();
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    public SchemaResources start() {
        long every = Math.max(200, settings.leaseMs() / 3);
        ticks.scheduleWithFixedDelay(this::tick, 0, every, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Whether this node reconciles now. */
    public boolean leader() {
        return controller != null;
    }

    void tick() {
        try {
            if (!access.isOpen() || access.refusedWrite(access.view()) != null) {
                stop("the node takes no writes");
                return;
            }
            if (!ready.getAsBoolean() && controller == null) {
                return; // a node still catching up would plan against a view behind the journal
            }
            long asked = System.currentTimeMillis();
            Applied a = journal.submit(new TakeLease(TASK, nodeId, settings.leaseMs()), PRINCIPAL)
                    .get(Math.max(1_000, settings.leaseMs() / 3), TimeUnit.MILLISECONDS);
            if (closed) {
                return;
            }
            if (a.outcome() instanceof LeaseTaken t && nodeId.equals(t.holder())) {
                // the lease runs from the record's time, which is after asked: counting from asked is safe
                heldUntil = asked + settings.leaseMs();
                if (controller == null) {
                    LOG.info("this node reconciles Schema resources (lease {} ms)", settings.leaseMs());
                    RegistryClient registry = new RegistryClient(settings.registryUrl(), settings.authorization(),
                            Duration.ofSeconds(30));
                    controller = new SchemaController(client, namespace(), settings.resyncMs(), registry, metrics,
                            nodeId).start();
                }
            } else {
                stop("another node holds the lease");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("Schema resources' lease not renewed: {}", e.toString());
            // keep reconciling only while the last grant surely runs, with a third of it to spare
            if (System.currentTimeMillis() > heldUntil - settings.leaseMs() / 3) {
                stop("the lease could not be renewed in time");
            }
        }
    }

    private synchronized void stop(String why) {
        SchemaController c = controller;
        if (c != null) {
            controller = null;
            heldUntil = 0;
            c.close();
            LOG.info("this node stopped reconciling Schema resources: {}", why);
        }
    }

    /** The running controller, or null (tests). */
    SchemaController controller() {
        return controller;
    }

    /** Stops reconciling and gives the lease up, so that another node takes it at once. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ticks.shutdownNow();
        boolean held = controller != null;
        stop("the node stops");
        if (held) {
            try {
                journal.submit(new TakeLease(TASK, nodeId, 0), PRINCIPAL).get(2, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.debug("Schema resources' lease not given up ({}); it expires", e.toString());
            }
        }
        client.close();
    }
}
