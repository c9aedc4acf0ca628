package io.quire.node.export;

import io.quire.client.RegisterRequest;
import io.quire.client.RegisteredId;
import io.quire.client.RegistryClient;
import io.quire.client.RegistryException;
import io.quire.client.SchemaVersion;
import io.quire.journal.command.ExporterProgress;
import io.quire.journal.model.Exporter;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Subject;
import io.quire.journal.view.ExporterReads;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one exporter on this node while it holds the exporter's lease. It reads the view's audit
 * trail from the recorded offset, a batch at a time; the subjects a batch changed are brought in
 * step at the destination by difference (a version the destination lacks is imported with its id
 * and version, one deleted here is deleted there), so a batch sent twice (after a node was killed
 * between sending and recording it) copies nothing twice. After each batch it records the offset
 * in the journal, which also renews its lease; a refused record means the lease is lost, and the
 * runner stops.
 */
final class ExportRunner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ExportRunner.class);
    static final int BATCH = 500;

    private final String name;
    private final int generation;
    private final String nodeId;
    private final ViewAccess access;
    private final JournalPort journal;
    private final long leaseMs;
    private final String autoContext;
    private volatile boolean stopped;
    private final Set<String> inImportMode = ConcurrentHashMap.newKeySet();
    /**
     * Per destination subject, the highest version this runner has seen there under the source's id:
     * a version the destination holds already is checked once, so that a destination that stored it
     * under another id (one that assigns its own ids) stops the exporter instead of passing for a copy.
     */
    private final Map<String, Integer> checkedUpTo = new ConcurrentHashMap<>();

    ExportRunner(String name, int generation, String nodeId, ViewAccess access, JournalPort journal, long leaseMs,
                 String autoContext) {
        this.name = name;
        this.generation = generation;
        this.nodeId = nodeId;
        this.access = access;
        this.journal = journal;
        this.leaseMs = leaseMs;
        this.autoContext = autoContext;
    }

    String name() {
        return name;
    }

    int generation() {
        return generation;
    }

    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    @Override
    public void run() {
        long at = Long.MIN_VALUE;
        RegistryClient dest = null; // its config changes only while paused, which ends this runner
        long renewed = System.currentTimeMillis();
        long backoff = 0;
        try {
            while (!stopped) {
                RegistryView view = access.view();
                Optional<Exporter> now = ExporterReads.exporter(view, name);
                if (now.isEmpty() || now.get().paused() || now.get().generation() != generation
                        || !nodeId.equals(now.get().runner())) {
                    return;
                }
                Exporter e = now.get();
                if (System.currentTimeMillis() >= e.leaseUntil()) {
                    return; // not renewed in time (its records' time is this node's clock): another node may run it now
                }
                if (at == Long.MIN_VALUE) {
                    at = e.offset().value();
                    dest = RegistryClient.fromConfig(e.config(), Duration.ofSeconds(30));
                }
                long end = view.position().offset().value();
                if (at >= end) {
                    if (System.currentTimeMillis() - renewed > leaseMs / 3) {
                        if (!record(at, null)) {
                            return;
                        }
                        renewed = System.currentTimeMillis();
                    }
                    Thread.sleep(50);
                    continue;
                }
                Set<Subject> touched = new LinkedHashSet<>();
                long from = at;
                long[] last = {at};
                view.audit().audit(Offset.of(from + 1), entry -> {
                    last[0] = entry.offset().value();
                    if (entry.errorCode() == null && entry.subject() != null && e.covers(entry.subject().name())) {
                        touched.add(entry.subject());
                    }
                    return last[0] - from < BATCH;
                });
                if (touched.isEmpty()) { // nothing of ours: move on, recorded with the next renewal
                    if (last[0] == from) {
                        Thread.sleep(50); // no entry past the offset yet
                    }
                    at = last[0];
                    continue;
                }
                String trace = null;
                try {
                    syncAll(view, e, touched, dest);
                    at = last[0];
                    backoff = 0;
                } catch (IOException ex) {
                    trace = ex.getMessage() == null ? ex.getClass().getSimpleName() + " from "
                            + e.config().get("schema.registry.url") : ex.getMessage();
                    LOG.warn("exporter {}: {}", name, trace);
                }
                if (!record(at, trace)) {
                    return;
                }
                renewed = System.currentTimeMillis();
                if (trace != null) {
                    backoff = Math.min(10_000, Math.max(250, backoff * 2));
                    Thread.sleep(backoff);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("exporter {} stopped on this node: {}", name, e.toString());
        } finally {
            stopped = true;
        }
    }

    /** Records the offset (and renews the lease); false when the journal refused it: the lease is lost. */
    private boolean record(long offset, String trace) throws InterruptedException {
        try {
            Applied a = journal.submit(new ExporterProgress(name, nodeId, generation, leaseMs, Offset.of(offset), trace),
                    ExportSupervisor.PRINCIPAL)
                    .get(30, TimeUnit.SECONDS);
            return a.outcome().accepted();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("exporter {}: cannot record progress: {}", name, e.toString());
            return true; // the lease decides: the supervisor stops this runner when it is someone else's
        }
    }

    /** The subject's name at the destination: renamed, then in the exporter's context. */
    String destination(Exporter e, Subject s) {
        String renamed = e.subjectRenameFormat() == null || e.subjectRenameFormat().isEmpty() ? s.name()
                : e.subjectRenameFormat().replace("${subject}", s.name());
        String ctx = switch (e.contextType()) {
            case Exporter.NONE -> null;
            case Exporter.CUSTOM -> e.context();
            default -> autoContext;
        };
        if (ctx == null || ctx.isEmpty() || renamed.startsWith(":")) {
            return renamed;
        }
        return ":" + (ctx.startsWith(".") ? ctx : "." + ctx) + ":" + renamed;
    }

    /**
     * Brings the subjects in step, {@link #PARALLEL} at a time (subjects are independent; a version
     * whose reference another subject has not yet sent fails, and the batch is tried again).
     */
    private void syncAll(RegistryView view, Exporter e, Set<Subject> subjects, RegistryClient dest)
            throws IOException, InterruptedException {
        List<Future<Void>> running = new ArrayList<>();
        for (Subject s : subjects) {
            running.add(POOL.submit(() -> {
                sync(view, e, s, dest);
                return null;
            }));
        }
        IOException failed = null;
        for (Future<Void> f : running) {
            try {
                f.get();
            } catch (ExecutionException ex) {
                if (ex.getCause() instanceof IOException io) {
                    failed = failed == null ? io : failed;
                } else if (ex.getCause() instanceof RuntimeException re) {
                    throw re;
                } else {
                    throw new IllegalStateException(ex.getCause());
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Subjects brought in step at once, over every exporter of the node. */
    static final int PARALLEL = 16;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(PARALLEL, r -> {
        Thread t = new Thread(r, "quire-exporter-sync");
        t.setDaemon(true);
        return t;
    });

    private void sync(RegistryView view, Exporter e, Subject s, RegistryClient dest)
            throws IOException, InterruptedException {
        String d = destination(e, s);
        List<VersionRecord> versions = view.versions(s);
        List<Integer> all = dest.versions(d, true);
        List<Integer> live = dest.versions(d, false);
        Set<Integer> here = new HashSet<>();
        int checked = checkedUpTo.getOrDefault(d, 0);
        for (VersionRecord v : versions) {
            int n = v.version().number();
            here.add(n);
            if (all.contains(n) && n > checked) {
                long there = dest.version(d, String.valueOf(n), true).map(SchemaVersion::id).orElse(-1L);
                if (there != v.schemaId().value()) {
                    throw new RegistryException(200, -1, "the destination holds " + d + " version " + n
                            + " under id " + there + ", not " + v.schemaId().value());
                }
            }
            if (!all.contains(n)) {
                if (inImportMode.add(d)) {
                    dest.setMode(d, "IMPORT", true);
                }
                RegisteredId got = dest.register(d, request(view, s, v), false);
                if (got.id() != v.schemaId().value()) {
                    throw new RegistryException(200, -1, "the destination stored " + d + " version " + n
                            + " under id " + got.id() + ", not " + v.schemaId().value());
                }
                if (v.deleted()) {
                    deleteThere(dest, d, n, false);
                }
            } else if (v.deleted() && live.contains(n)) {
                deleteThere(dest, d, n, false);
            }
        }
        if (!versions.isEmpty()) {
            checkedUpTo.put(d, versions.get(versions.size() - 1).version().number());
        }
        List<Integer> gone = new ArrayList<>(all);
        gone.removeAll(here);
        for (int n : gone) { // deleted permanently here
            if (live.contains(n)) {
                deleteThere(dest, d, n, false);
            }
            deleteThere(dest, d, n, true);
        }
    }

    /** Deletes a version at the destination; one it does not hold (any more) is no failure. */
    private static void deleteThere(RegistryClient dest, String subject, int version, boolean permanent)
            throws IOException, InterruptedException {
        try {
            dest.deleteVersion(subject, version, permanent);
        } catch (RegistryException ex) {
            if (ex.status() != 404) {
                throw ex;
            }
        }
    }

    private static RegisterRequest request(RegistryView view, Subject s, VersionRecord v) {
        StoredSchema schema = view.schemaOf(s, v).orElseThrow(() -> new IllegalStateException(
                "no schema for " + s + " version " + v.version().number()));
        return RegisterRequest.imported(schema.schema(), schema.schemaType().name(), schema.references(),
                (int) v.schemaId().value(), v.version().number(), schema.metadata(), schema.ruleSet());
    }
}
