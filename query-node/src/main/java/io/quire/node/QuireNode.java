package io.quire.node;

import io.quire.ids.BlockAllocator;
import io.quire.journal.JournalContract;
import io.quire.node.config.QuireConfig;
import io.quire.node.exec.BoundedPool;
import io.quire.node.export.ExportSupervisor;
import io.quire.node.kube.SchemaResources;
import io.quire.node.follow.ConfluentFollower;
import io.quire.node.follow.SourceSettings;
import io.quire.node.http.HttpApi;
import io.quire.node.http.HttpVerticle;
import io.quire.node.http.NodeStatus;
import io.quire.node.kafka.JournalAdmin;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.region.Regions;
import io.quire.node.security.Authenticator;
import io.quire.node.security.OidcVerifier;
import io.quire.node.service.LocalKms;
import io.quire.node.service.Registry;
import io.quire.node.service.SchemaParsing;
import io.quire.node.service.ViewAccess;
import io.quire.node.view.apply.AppliedTracker;
import io.quire.node.view.snapshot.AutoSnapshots;
import io.quire.node.view.snapshot.Snapshots;
import io.quire.node.write.CommandSubmitter;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.net.BindException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One query node: the journal topic checked, the view kept by Kafka Streams, the producer, the
 * id allocator, the services and the HTTP servers, started in that order and closed in reverse.
 */
public final class QuireNode implements NodeStatus, AutoCloseable {

    static final int WORKER_QUEUE_PER_THREAD = 1_000;
    static final int HASH_QUEUE = 256;
    static final int ADMIN_SCAN_QUEUE = 8;

    private static final Logger LOG = LoggerFactory.getLogger(QuireNode.class);

    private final QuireConfig config;
    private volatile ConfluentFollower follower;
    private volatile ExportSupervisor exporters;
    private volatile SchemaResources schemaResources;
    private volatile Regions regions;
    private final QuireMetrics metrics = new QuireMetrics();
    private final AppliedTracker tracker = new AppliedTracker(metrics);
    private final ViewAccess access = new ViewAccess();
    private final ViewLifecycle view;
    private volatile long startEndOffset = -1;
    /** Set on {@link #shutdownGracefully}: not ready, answers close their connections. */
    private volatile boolean stopping;
    /** The HTTP verticles' deployment, undeployed first on a graceful shutdown. */
    private volatile String httpDeployment;
    private String topicId;
    private JournalAdmin admin;
    private volatile String kafkaClusterId = "";
    private JournalHealth health;
    private Producer<byte[], byte[]> producer;
    private CommandSubmitter submitter;
    private BoundedPool workers;
    private BoundedPool outcomes;
    private BoundedPool hashing;
    private BoundedPool adminScans;
    private ScheduledExecutorService housekeeping;
    private Vertx vertx;
    private final AtomicInteger httpPort = new AtomicInteger();

    public QuireNode(QuireConfig config, Runnable onFatal) {
        this.config = config;
        this.view = new ViewLifecycle(config, tracker, access, onFatal);
    }

    public QuireNode start() throws Exception {
        LOG.info("starting Quire node: {}", config.describe());
        Files.createDirectories(config.dataDir());
        admin = new JournalAdmin(config.kafkaProperties(), config.journalTopic());
        topicId = admin.ensureJournal(config.journalReplication(), config.journalMinIsr());
        startEndOffset = admin.endOffset(30_000);
        kafkaClusterId = admin.clusterId(30_000);
        health = new JournalHealth(admin, startEndOffset);
        if (!config.bootstrapSnapshot().isEmpty()) {
            view.bootstrapFromSnapshot(config.bootstrapSnapshot(), topicId, startEndOffset);
        }
        LOG.info("journal {} ends at offset {}; this node is ready once it has applied that far", config.journalTopic(),
                startEndOffset);
        view.start(startEndOffset);

        int cores = Runtime.getRuntime().availableProcessors();
        // Separate pools, so that one kind of work cannot starve another: schema work (parse,
        // check), password hashing and admin scans are bounded and answer 429 when full; the
        // completions of admitted commands never refuse (see BoundedPool).
        workers = BoundedPool.bounded("worker", config.effectiveWorkerThreads(), WORKER_QUEUE_PER_THREAD
                * config.effectiveWorkerThreads());
        outcomes = BoundedPool.unbounded("outcome", Math.max(2, cores));
        hashing = BoundedPool.bounded("password-hash", Math.max(1, cores / 2), HASH_QUEUE);
        adminScans = BoundedPool.bounded("admin-scan", 1, ADMIN_SCAN_QUEUE);
        producer = new KafkaProducer<>(producerProperties(), new ByteArraySerializer(), new ByteArraySerializer());
        submitter = new CommandSubmitter(producer, config.journalTopic(), config.nodeId(), tracker,
                config.writeTimeoutMs(), Clock.systemUTC(), outcomes, CommandSubmitter.DEFAULT_QUEUE);
        regions = Regions.install(access, submitter, config.regions(), tracker::appliedOffset);
        BlockAllocator allocator = new BlockAllocator(new NodeLeaser(submitter, config.nodeId(), metrics),
                config.idBlockSize());
        metrics.bindApplyTimings(view.timings());
        metrics.bindMemory(view::viewMemory, view::viewCompactions);
        metrics.bindSearchIndex(view::searchIndexKept);
        metrics.bindBudget(config.view().budget(Relaunch.relaunched()));
        metrics.bindView(view::viewDiskBytes, view::viewKeys, () -> ready() ? 1 : 0);
        metrics.bind(tracker::appliedOffset, () -> Math.max(0, health.endOffset() - 1 - tracker.appliedOffset()),
                view::skippedCorrupt, allocator::leases);
        housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quire-housekeeping");
            t.setDaemon(true);
            return t;
        });
        housekeeping.scheduleWithFixedDelay(health::refresh, 2, JournalHealth.REFRESH_SECONDS, TimeUnit.SECONDS);
        housekeeping.scheduleAtFixedRate(() -> metrics.sample(System.currentTimeMillis(), tracker.appliedOffset(),
                health.endOffset()), 0, QuireMetrics.SAMPLE_SECONDS, TimeUnit.SECONDS);
        NativeTrim trim = config.view().nativeTrimIntervalMs() > 0 ? NativeTrim.ifUseful() : null;
        if (trim != null) {
            long every = config.view().nativeTrimIntervalMs();
            housekeeping.scheduleWithFixedDelay(trim, every, every, TimeUnit.MILLISECONDS);
        }
        if (config.snapshotEveryRecords() > 0) {
            housekeeping.scheduleWithFixedDelay(new AutoSnapshots(config.snapshotEveryRecords(),
                    config.snapshotRetain(), tracker::appliedOffset, this::snapshot,
                    config.dataDir().resolve("snapshots")), 2, 2, TimeUnit.SECONDS);
        }

        SchemaParsing parsing = new SchemaParsing(config.limits(), config.protobufStrictReserved());

        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(config.effectiveHttpInstances()));
        Authenticator authenticator = Authenticator.create(vertx, config.security(), hashing);
        if (authenticator != null && authenticator.oidc() != null) {
            metrics.bindOidc(authenticator.oidc(), OidcVerifier::keyFetches);
        }
        if (config.follow().on()) {
            Map<String, String> settings = SourceSettings.load(config.follow().configFile());
            follower = new ConfluentFollower(config.follow().bootstrapServers(), config.follow().topic(), settings,
                    config.follow().skipUnreadable(), access, submitter,
                    journal -> Registry.create(access, parsing, journal, allocator, workers, metrics, config.writeTimeoutMs()),
                    this::ready, config.writeTimeoutMs(), Clock.systemUTC()).start();
            metrics.bindFollow(follower, f -> f.status().lagRecords(), f -> f.status().lagSeconds(),
                    f -> f.status().recordsCopied());
        }
        HttpApi.Admin admin = new HttpApi.Admin(this::snapshot, regions, follower, submitter);
        HttpApi.Deps deps = new HttpApi.Deps(Registry.create(access, parsing, submitter, allocator, workers, metrics,
                config.writeTimeoutMs(), LocalKms.fromFile(config.security().kmsLocalSecretFile())), access,
                tracker, metrics, this, admin, adminScans, config.maxBodyBytes(), config.readWaitTimeoutMs(),
                config.limits().maxPageSize(), authenticator,
                config.security().authMetrics(), config.incompatibleErrorCode());
        exporters = new ExportSupervisor(config.nodeId(), access, submitter,
                config.regions().exporterLeaseMs(), "quire-" + kafkaClusterId).start();
        listen(deps);
        if (config.kubernetes().schemas()) {
            schemaResources = new SchemaResources(config.nodeId(), access, submitter,
                    SchemaResources.settings(config, httpPort.get()), metrics, this::ready).start();
        }
        LOG.info("HTTP API listening on {}://{}:{} (authentication {})", config.security().tls() ? "https" : "http",
                config.host(), httpPort.get(), config.security().authEnabled() ? "on" : "off");
        return this;
    }

    /**
     * One HTTP server per event loop on one port. With port 0 a single server binds a port the
     * system chooses; several servers need one port known before they bind, so the node picks a
     * free one and tries again with another if something else took it in between.
     */
    private void listen(HttpApi.Deps deps) throws Exception {
        int instances = config.effectiveHttpInstances();
        if (config.port() != 0 || instances == 1) {
            deploy(deps, config.port(), instances);
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                deploy(deps, freePort(), instances);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof BindException) || attempt == 5) {
                    throw e;
                }
                LOG.info("the chosen HTTP port was taken meanwhile; choosing another");
            }
        }
    }

    private void deploy(HttpApi.Deps deps, int port, int instances) throws Exception {
        Set<Integer> bound = ConcurrentHashMap.newKeySet();
        httpDeployment = vertx.deployVerticle(() -> new HttpVerticle(deps, config.host(), port, config.security(),
                        bound::add, config.shutdown().timeoutMs()),
                new DeploymentOptions().setInstances(instances)).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        httpPort.set(bound.iterator().next());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Properties producerProperties() {
        Properties p = config.kafkaProperties();
        // Longer batches cost the broker, the producer and the view's consumer less CPU per command,
        // but each command waits for its batch: see --journal-linger-ms.
        p.put("linger.ms", config.journalLingerMs());
        int requestTimeout = (int) Math.min(30_000, config.writeTimeoutMs());
        p.put("request.timeout.ms", requestTimeout);
        p.put("delivery.timeout.ms", requestTimeout + config.journalLingerMs() + 1);
        p.put("max.block.ms", config.writeTimeoutMs());
        p.put("client.id", "quire-" + config.nodeId());
        p.putAll(JournalContract.producerConfig());
        return p;
    }

    @Override
    public String kafkaClusterId() {
        return kafkaClusterId;
    }

    @Override
    public String registryClusterId() {
        return config.journalTopic();
    }

    /** A snapshot of the view under the data dir, with its manifest. */
    public Snapshots.Taken snapshot() throws Exception {
        return view.snapshot(topicId);
    }

    @Override
    public boolean journalReachable() {
        return health.reachable();
    }

    /** The journal's end offset when the node started: how far it must apply to be ready. */
    public long journalEnd() {
        return startEndOffset;
    }

    public int httpPort() {
        return httpPort.get();
    }

    /** The Schema resources' reconciler, when enabled (tests). */
    public SchemaResources schemaResources() {
        return schemaResources;
    }

    @Override
    public String nodeId() {
        return config.nodeId();
    }

    @Override
    public long journalEndOffset() {
        return health.endOffset();
    }

    @Override
    public List<String> peerNodes() {
        return config.peerNodes();
    }

    @Override
    public boolean ready() {
        return !stopping && access.isOpen() && tracker.appliedOffset() >= startEndOffset - 1;
    }

    @Override
    public String state() {
        return stopping ? "STOPPING" : view.state();
    }

    @Override
    public boolean stopping() {
        return stopping;
    }

    /**
     * Stops as a node behind a load balancer should (SIGTERM): not ready at once, still serving for
     * {@code --shutdown-delay-ms} with every answer closing its connection (the endpoint-removal
     * window), then no new connection while the requests in flight, writes waiting for their
     * outcome included, are answered (at most {@code --shutdown-timeout-ms}); then the view is
     * closed cleanly.
     */
    public void shutdownGracefully() {
        stopping = true;
        if (schemaResources != null) {
            schemaResources.close(); // first: its reconciles call this node's HTTP API, and another node takes over
        }
        QuireConfig.Shutdown s = config.shutdown();
        LOG.info("stopping: not ready; serving {} ms more, then up to {} ms for requests in flight", s.delayMs(),
                s.timeoutMs());
        try {
            Thread.sleep(s.delayMs());
            String deployment = httpDeployment;
            if (vertx != null && deployment != null) {
                long t0 = System.nanoTime();
                vertx.undeploy(deployment).toCompletionStage().toCompletableFuture()
                        .get(s.timeoutMs() + 5_000, TimeUnit.MILLISECONDS);
                LOG.info("HTTP stopped: requests in flight answered in {} ms", (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("stopping HTTP: {}", e.toString());
        }
        close();
    }

    /** Journal records this node applied at start before Kafka Streams started ({@link io.quire.node.view.apply.CatchUp}). */
    public long recordsCaughtUpBeforeStreams() {
        return view.recordsCaughtUp();
    }

    @Override
    public long appliedOffset() {
        return tracker.appliedOffset();
    }

    /** Waits until the node is ready, or throws after {@code timeout}. */
    public QuireNode awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("node not ready after " + timeout + " (state " + state() + ")");
            }
            Thread.sleep(20);
        }
        return this;
    }

    @Override
    public void close() {
        if (follower != null) {
            follower.close();
        }
        if (schemaResources != null) {
            schemaResources.close();
        }
        if (exporters != null) {
            exporters.close();
        }
        if (vertx != null) {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("closing HTTP", e);
            }
        }
        if (housekeeping != null) {
            housekeeping.shutdownNow();
        }
        if (submitter != null) {
            submitter.close();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        view.close();
        for (BoundedPool pool : new BoundedPool[] {workers, outcomes, hashing, adminScans}) {
            if (pool != null) {
                pool.close();
            }
        }
        if (admin != null) {
            admin.close();
        }
        LOG.info("node {} stopped", config.nodeId());
    }
}
