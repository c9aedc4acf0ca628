package io.quire.node;

import io.quire.ids.BlockAllocator;
import io.quire.ids.IdBlock;
import io.quire.journal.JournalContract;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.node.config.QuireConfig;
import io.quire.node.http.HttpApi;
import io.quire.node.http.HttpVerticle;
import io.quire.node.http.NodeStatus;
import io.quire.node.kafka.JournalAdmin;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.security.Authenticator;
import io.quire.node.error.RegistryException;
import io.quire.node.service.Registry;
import io.quire.node.service.SchemaParsing;
import io.quire.node.service.ViewAccess;
import io.quire.node.view.AppliedTracker;
import io.quire.node.view.JournalTopology;
import io.quire.node.view.Snapshots;
import io.quire.node.view.StoreKv;
import io.quire.node.view.ViewStore;
import io.quire.node.write.CommandSubmitter;
import io.quire.node.exec.BoundedPool;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.QueryableStoreTypes;
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
    private final Runnable onFatal;
    private final QuireMetrics metrics = new QuireMetrics();
    private final AppliedTracker tracker = new AppliedTracker(metrics);
    private final ViewAccess access = new ViewAccess();
    private final AtomicLong skippedCorrupt = new AtomicLong();
    private final AtomicLong endOffset = new AtomicLong(-1);
    private volatile long startEndOffset = -1;
    private volatile long streamsStarted;
    private volatile long lastJournalContact = System.nanoTime();
    private boolean lastCheckOk = true;
    private static final long JOURNAL_SILENCE_NANOS = 12_000_000_000L;
    private final java.util.concurrent.atomic.AtomicReference<ViewStore> viewStore =
            new java.util.concurrent.atomic.AtomicReference<>();
    private String topicId;
    private JournalAdmin admin;
    private KafkaStreams streams;
    private Producer<byte[], byte[]> producer;
    private CommandSubmitter submitter;
    private BlockAllocator allocator;
    private BoundedPool workers;
    private BoundedPool outcomes;
    private BoundedPool hashing;
    private BoundedPool adminScans;
    private ScheduledExecutorService housekeeping;
    private Vertx vertx;
    private int httpPort;

    public QuireNode(QuireConfig config, Runnable onFatal) {
        this.config = config;
        this.onFatal = onFatal;
    }

    public QuireNode start() throws Exception {
        LOG.info("starting Quire node: {}", config.describe());
        Files.createDirectories(config.dataDir());
        admin = new JournalAdmin(config.kafkaProperties(), config.journalTopic());
        topicId = admin.ensureJournal(config.journalReplication(), config.journalMinIsr());
        startEndOffset = admin.endOffset(30_000);
        endOffset.set(startEndOffset);
        if (!config.bootstrapSnapshot().isEmpty()) {
            bootstrapFromSnapshot(Path.of(config.bootstrapSnapshot()));
        }
        LOG.info("journal {} ends at offset {}; this node is ready once it has applied that far", config.journalTopic(),
                startEndOffset);

        startStreams();
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
        allocator = new BlockAllocator(this::lease, config.idBlockSize());
        metrics.bind(tracker::appliedOffset, () -> Math.max(0, endOffset.get() - 1 - tracker.appliedOffset()),
                skippedCorrupt::get, allocator::leases);
        housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quire-housekeeping");
            t.setDaemon(true);
            return t;
        });
        housekeeping.scheduleWithFixedDelay(this::refreshEndOffset, 2, 4, TimeUnit.SECONDS);

        SchemaParsing parsing = new SchemaParsing(config.limits(), config.protobufStrictReserved());
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(config.effectiveHttpInstances()));
        HttpApi.Deps deps = new HttpApi.Deps(Registry.create(access, parsing, submitter, allocator, workers, metrics,
                config.writeTimeoutMs()), access,
                tracker, metrics, this, adminScans, config.maxBodyBytes(), config.readWaitTimeoutMs(),
                config.limits().maxPageSize(), Authenticator.create(vertx, config.security(), hashing),
                config.security().authMetrics());
        httpPort = config.port() == 0 ? freePort() : config.port();
        vertx.deployVerticle(() -> new HttpVerticle(deps, config.host(), httpPort, config.security()),
                        new DeploymentOptions().setInstances(config.effectiveHttpInstances()))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        LOG.info("HTTP API listening on {}://{}:{} (authentication {})", config.security().tls() ? "https" : "http",
                config.host(), httpPort, config.security().authEnabled() ? "on" : "off");
        return this;
    }

    private String applicationId() {
        return "quire-" + config.nodeId().replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Where Kafka Streams keeps this node's view store (a global store of this application id). */
    private Path storeDir() {
        return config.dataDir().resolve("streams").resolve(applicationId()).resolve("global").resolve("quire")
                .resolve(JournalTopology.STORE);
    }

    private void bootstrapFromSnapshot(Path snapshot) throws Exception {
        if (Files.exists(storeDir())) {
            LOG.info("bootstrap snapshot {} ignored: this node already has a view at {}", snapshot, storeDir());
            return;
        }
        long started = System.nanoTime();
        Snapshots.Manifest m = Snapshots.install(snapshot, storeDir(), config.journalTopic(), topicId, startEndOffset);
        LOG.info("view installed from snapshot {} (offset {}, {} bytes) in {} ms; replaying journal records {}..{}",
                snapshot, m.offset(), m.bytes(), (System.nanoTime() - started) / 1_000_000, m.offset() + 1,
                startEndOffset - 1);
    }

    @Override
    public Map<String, Object> snapshot() throws Exception {
        ViewStore store = viewStore.get();
        if (store == null || !access.isOpen()) {
            throw RegistryException.of(ErrorCode.NOT_READY, "the view is not open yet");
        }
        Map<String, Object> made;
        try {
            made = Snapshots.create(store, config.dataDir().resolve("snapshots"), config.journalTopic(), topicId);
        } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
            throw RegistryException.of(ErrorCode.NOT_READY, "the view closed while the snapshot was taken");
        }
        LOG.info("snapshot written: {}", made);
        return made;
    }

    private void startStreams() {
        Properties p = config.kafkaProperties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId());
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("streams").toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.journalReplication());
        p.put(StreamsConfig.globalConsumerPrefix("fetch.max.wait.ms"), 100);
        p.put("processing.exception.handler.global.enabled", true);
        streams = new KafkaStreams(
                JournalTopology.build(config.journalTopic(), tracker, config.skipCorruptRecords(), skippedCorrupt,
                        viewStore::set), p);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("the view's stream thread failed; stopping the node", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((now, before) -> {
            LOG.info("view state {} -> {}", before, now);
            if (now == KafkaStreams.State.RUNNING && !access.isOpen()) {
                RegistryView view = new RegistryView(new StoreKv(streams.store(StoreQueryParameters.fromNameAndType(
                        JournalTopology.STORE, QueryableStoreTypes.keyValueStore()))));
                access.open(view);
                tracker.advanceTo(view.position().offset());
                LOG.info("view caught up to offset {} in {} ms (journal end at start: {})", view.position().offset(),
                        (System.nanoTime() - streamsStarted) / 1_000_000, startEndOffset);
            } else if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.PENDING_ERROR) {
                access.close();
                onFatal.run();
            }
        });
        streamsStarted = System.nanoTime();
        streams.start();
    }

    private Properties producerProperties() {
        Properties p = config.kafkaProperties();
        p.put("linger.ms", 1);
        int requestTimeout = (int) Math.min(30_000, config.writeTimeoutMs());
        p.put("request.timeout.ms", requestTimeout);
        p.put("delivery.timeout.ms", requestTimeout + 1);
        p.put("max.block.ms", config.writeTimeoutMs());
        p.put("client.id", "quire-" + config.nodeId());
        p.putAll(JournalContract.producerConfig());
        return p;
    }

    private CompletableFuture<IdBlock> lease(int size) {
        long started = System.nanoTime();
        return submitter.submit(new LeaseIdBlock(config.nodeId(), UUID.randomUUID().toString(), size), "quire-node")
                .thenApply(applied -> {
                    if (applied.outcome() instanceof BlockGranted g) {
                        long nanos = System.nanoTime() - started;
                        metrics.idLease(nanos);
                        LOG.info("leased ids [{}, {}) in {} µs", g.start(), g.start() + g.size(), nanos / 1_000);
                        return new IdBlock(g.start(), g.size());
                    }
                    String why = applied.outcome() instanceof Rejected r ? r.message() : applied.outcome().toString();
                    throw RegistryException.of(ErrorCode.STORE_ERROR, "id lease refused: " + why);
                });
    }

    private void refreshEndOffset() {
        try {
            endOffset.set(admin.endOffset(4_000));
        } catch (Exception e) {
            if (lastCheckOk) {
                LOG.warn("journal unreachable: {}", e.toString());
            }
            lastCheckOk = false;
            return;
        }
        if (!lastCheckOk) {
            LOG.info("journal reachable again");
        }
        lastCheckOk = true;
        lastJournalContact = System.nanoTime();
    }

    @Override
    public boolean journalReachable() {
        return System.nanoTime() - lastJournalContact < JOURNAL_SILENCE_NANOS;
    }

    /** The journal's end offset when the node started: how far it must apply to be ready. */
    public long journalEnd() {
        return startEndOffset;
    }

    public int httpPort() {
        return httpPort;
    }

    @Override
    public boolean ready() {
        return access.isOpen() && tracker.appliedOffset() >= startEndOffset - 1;
    }

    @Override
    public String state() {
        return streams == null ? "STARTING" : streams.state().name();
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

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
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
        access.close();
        if (streams != null) {
            streams.close(Duration.ofSeconds(30));
        }
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
