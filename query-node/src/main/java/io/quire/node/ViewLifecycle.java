package io.quire.node;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.view.RegistryView;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.quire.node.service.ViewAccess;
import io.quire.node.view.apply.AppliedTracker;
import io.quire.node.view.apply.ApplyTimings;
import io.quire.node.view.apply.CatchUp;
import io.quire.node.view.apply.JournalTopology;
import io.quire.node.view.snapshot.Folders;
import io.quire.node.view.snapshot.ProgressLine;
import io.quire.node.view.snapshot.SnapshotFetch;
import io.quire.node.view.snapshot.Snapshots;
import io.quire.node.view.store.GroupCommit;
import io.quire.node.view.store.StoreKv;
import io.quire.node.view.store.StoreMemory;
import io.quire.node.view.store.Tuning;
import io.quire.node.view.store.ViewLayout;
import io.quire.node.view.store.ViewStore;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's view from first start to close: a snapshot installed before the first start, the
 * Kafka Streams application that applies the journal into the RocksDB store, opening the view to
 * readers once it has caught up, snapshots of it, and stopping the node when it fails.
 */
final class ViewLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ViewLifecycle.class);

    private final QuireConfig config;
    private final AppliedTracker tracker;
    private final ViewAccess access;
    private final Runnable onFatal;
    private final AtomicLong skippedCorrupt = new AtomicLong();
    private final AtomicReference<ViewStore> store = new AtomicReference<>();
    private final ApplyTimings timings = new ApplyTimings();
    private final ScheduledExecutorService progress =
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "quire-catch-up-progress");
                t.setDaemon(true);
                return t;
            });
    private volatile KafkaStreams streams;
    private volatile Thread starter;
    private volatile boolean closing;
    private long started;
    private volatile CatchUp.Result caughtUp;

    ViewLifecycle(QuireConfig config, AppliedTracker tracker, ViewAccess access, Runnable onFatal) {
        this.config = config;
        this.tracker = tracker;
        this.access = access;
        this.onFatal = onFatal;
    }

    private String applicationId() {
        return "quire-" + config.nodeId().replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Where Kafka Streams keeps this node's view store (a global store of this application id). */
    private Path storeDir() {
        return config.dataDir().resolve("streams").resolve(applicationId()).resolve("global").resolve("quire")
                .resolve(JournalTopology.STORE);
    }

    /**
     * A fresh node's view from a snapshot of another, given as a folder or as a running node's
     * URL (fetched over HTTP); a node that has a view keeps it.
     */
    void bootstrapFromSnapshot(String snapshot, String topicId, long journalEnd) throws Exception {
        if (Files.exists(storeDir())) {
            LOG.info("bootstrap snapshot {} ignored: this node already has a view at {}", snapshot, storeDir());
            return;
        }
        long t0 = System.nanoTime();
        Snapshots.Manifest m;
        if (SnapshotFetch.isUrl(snapshot)) {
            String file = config.view().snapshotAuthorizationFile();
            String authorization = file.isEmpty() ? "" : Files.readString(Path.of(file));
            Path fetched = config.dataDir().resolve("snapshots").resolve(".fetched-" + UUID.randomUUID());
            try {
                SnapshotFetch.fetch(snapshot, authorization, fetched);
                m = Snapshots.install(fetched, storeDir(), config.journalTopic(), topicId, journalEnd, true);
            } catch (ConnectException | UnknownHostException | NoRouteToHostException e) {
                // No node answers there (the first pod of a new cluster). Refusals (403, a bad
                // archive) stop the start either way: they are mistakes to fix, not a missing peer.
                if (config.view().snapshotRequired()) {
                    throw e;
                }
                LOG.warn("no node answered at {} for a bootstrap snapshot ({}): replaying the journal from the start"
                        + " (bootstrap-snapshot-required is false)", snapshot, e.toString());
                return;
            } finally {
                Folders.deleteTree(fetched);
            }
        } else {
            m = Snapshots.install(Path.of(snapshot), storeDir(), config.journalTopic(), topicId, journalEnd);
        }
        LOG.info("view installed from snapshot {} (offset {}, {} bytes) in {} ms; replaying journal records {}..{}",
                snapshot, m.offset(), m.bytes(), (System.nanoTime() - t0) / 1_000_000, m.offset() + 1, journalEnd - 1);
    }

    /** While the view catches up: how far, how fast, how long still. */
    private void logCatchUp(long journalEnd) {
        if (access.isOpen()) {
            progress.shutdown();
            return;
        }
        long done = timings.records();
        long left = Math.max(0, journalEnd - 1 - tracker.appliedOffset());
        LOG.info(ProgressLine.of("view catching up", done, done + left, System.nanoTime() - started, "records"));
    }

    void start(long journalEnd) throws Exception {
        String rebuild = ViewLayout.rebuildReason(storeDir());
        if (rebuild != null) {
            LOG.warn("the view at {} is rebuilt from the journal: {}", storeDir(), rebuild);
            Folders.deleteTree(storeDir());
        }
        started = System.nanoTime();
        progress.scheduleWithFixedDelay(() -> logCatchUp(journalEnd), 5, 5, TimeUnit.SECONDS);
        Tuning tuning = Tuning.of(config.view().memoryMib(), config.view().compression());
        // Off the caller's thread: the node answers /health/live (and 503 to reads) while it catches up.
        starter = new Thread(() -> {
            try {
                // Kafka Streams' global state folder of this application: the store lives in quire/<store> under it.
                CatchUp.Result r = CatchUp.run(config.kafkaProperties(), config.journalTopic(), journalEnd,
                        config.view().catchUpMinRecords(), storeDir().getParent().getParent().toFile(),
                        JournalTopology.STORE, GroupCommit.DEFAULT, tuning, tracker,
                        config.skipCorruptRecords(), skippedCorrupt, timings, () -> closing);
                caughtUp = r;
                synchronized (this) {
                    if (closing) {
                        r.store().close();
                        return;
                    }
                    startStreams(journalEnd, tuning, r.store());
                }
            } catch (Throwable e) {
                if (!closing) {
                    LOG.error("the view's catch-up failed; stopping the node", e);
                    access.close();
                    onFatal.run();
                }
            }
        }, "quire-view-catch-up");
        starter.setDaemon(true);
        starter.start();
    }

    private void startStreams(long journalEnd, Tuning tuning, ViewStore opened) {
        Properties p = config.kafkaProperties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId());
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("streams").toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.journalReplication());
        p.put(StreamsConfig.globalConsumerPrefix("fetch.max.wait.ms"), 100);
        // The global thread writes the view's pending group (ViewStore) at least this often when idle.
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        p.put("processing.exception.handler.global.enabled", true);
        streams = new KafkaStreams(JournalTopology.build(config.journalTopic(), tracker, config.skipCorruptRecords(),
                skippedCorrupt, GroupCommit.SERVING, tuning, store::set, timings, opened), p);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("the view's stream thread failed; stopping the node", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((now, before) -> {
            LOG.info("view state {} -> {}", before, now);
            if (now == KafkaStreams.State.RUNNING && !access.isOpen()) {
                // Readers use the store itself, not Streams' query wrapper (which looks the store up,
                // and times each call, on every read): the store refuses reads once closed.
                RegistryView view = new RegistryView(new StoreKv(store.get()));
                access.open(view);
                tracker.advanceTo(view.position().offset());
                CatchUp.Result c = caughtUp;
                LOG.info("view caught up to offset {} in {} ms (journal end at start: {}; {} records applied before "
                        + "Kafka Streams started, at {} records/s, the second half at {} records/s); per record applied ({}): {}",
                        view.position().offset(), (System.nanoTime() - started) / 1_000_000, journalEnd,
                        c == null ? 0 : c.records(), c == null ? 0 : Math.round(c.recordsPerSecond()),
                        c == null ? 0 : Math.round(c.secondHalfRecordsPerSecond()),
                        timings.records(), timings.perRecord());
            } else if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.PENDING_ERROR) {
                access.close();
                onFatal.run();
            }
        });
        streams.start();
    }

    /** A checkpoint of the view under the data dir, with its manifest. */
    Snapshots.Taken snapshot(String topicId) throws Exception {
        ViewStore s = store.get();
        if (s == null || !access.isOpen()) {
            throw RegistryException.of(ErrorCode.NOT_READY, "the view is not open yet");
        }
        Snapshots.Taken made;
        try {
            made = Snapshots.create(s, config.dataDir().resolve("snapshots"), config.journalTopic(), topicId);
        } catch (InvalidStateStoreException e) {
            throw RegistryException.of(ErrorCode.NOT_READY, "the view closed while the snapshot was taken");
        }
        LOG.info("snapshot written: {}", made);
        return made;
    }

    long recordsCaughtUp() {
        CatchUp.Result c = caughtUp;
        return c == null ? 0 : c.records();
    }

    /** Bytes of the view store's RocksDB memory of one kind; -1 while no store is open. */
    long viewMemory(StoreMemory kind) {
        ViewStore s = store.get();
        return s == null ? -1 : s.memory(kind);
    }

    /** Bytes of the view's table files on disk; -1 while no store is open. */
    long viewDiskBytes() {
        ViewStore s = store.get();
        return s == null ? -1 : s.diskBytes();
    }

    /** RocksDB's estimate of the view's keys; -1 while no store is open. */
    long viewKeys() {
        ViewStore s = store.get();
        return s == null ? -1 : s.approximateNumEntries();
    }

    /** Commands whose search terms wait to be filed after a catch-up; -1 while no store is open. */
    long searchIndexKept() {
        ViewStore s = store.get();
        return s == null ? -1 : s.searchIndexKept();
    }

    /** Compactions of the view store running or pending; -1 while no store is open. */
    long viewCompactions() {
        ViewStore s = store.get();
        return s == null ? -1 : s.compactions();
    }

    ApplyTimings timings() {
        return timings;
    }

    long skippedCorrupt() {
        return skippedCorrupt.get();
    }

    String state() {
        KafkaStreams s = streams;
        return s != null ? s.state().name() : starter != null && starter.isAlive() ? "CATCHING_UP" : "STARTING";
    }

    /** Readers first (they get 503), then the catch-up, then the store. */
    void close() {
        progress.shutdownNow();
        access.close();
        closing = true;
        Thread t = starter;
        if (t != null) {
            try {
                t.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (streams != null) {
                streams.close(Duration.ofSeconds(30));
            }
        }
    }
}
