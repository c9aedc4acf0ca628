package io.quire.node.export;

import io.quire.journal.command.ExporterProgress;
import io.quire.journal.model.Exporter;
import io.quire.journal.model.Principal;
import io.quire.journal.view.ExporterReads;
import io.quire.journal.view.RegistryView;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.JournalPort;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On every node: looks at the exporters the journal defines twice a second and runs those whose
 * lease this node holds. A running exporter whose lease is free or expired is claimed with an
 * {@link ExporterProgress} record; the applier grants it to the first claim in journal order, so
 * exactly one node runs an exporter, and another takes it over once the runner stops renewing
 * (killed, cut off, or stopped). Nothing runs where the node takes no writes (a follower region).
 */
public final class ExportSupervisor implements AutoCloseable {

    /** Who an exporter's progress and lease records are written for. */
    static final Principal PRINCIPAL = Principal.of("exporter");

    private static final Logger LOG = LoggerFactory.getLogger(ExportSupervisor.class);

    private final String nodeId;
    private final ViewAccess access;
    private final JournalPort journal;
    private final long leaseMs;
    private final String autoContext;
    private final ScheduledExecutorService ticks;
    private final ExecutorService runners;
    private final Map<String, ExportRunner> running = new ConcurrentHashMap<>(); // close() too
    private final Set<String> claiming = ConcurrentHashMap.newKeySet();

    public ExportSupervisor(String nodeId, ViewAccess access, JournalPort journal, long leaseMs, String autoContext) {
        this.nodeId = nodeId;
        this.access = access;
        this.journal = journal;
        this.leaseMs = leaseMs;
        this.autoContext = autoContext;
        this.ticks = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "quire-exporters"));
        this.runners = Executors.newCachedThreadPool(r -> daemon(r, "quire-exporter"));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    public ExportSupervisor start() {
        ticks.scheduleWithFixedDelay(this::tick, 500, 500, TimeUnit.MILLISECONDS);
        return this;
    }

    void tick() {
        try {
            if (!access.isOpen()) {
                return;
            }
            RegistryView view = access.view();
            boolean writes = access.refusedWrite(view) == null;
            long now = System.currentTimeMillis();
            Set<String> seen = new HashSet<>();
            for (Exporter e : ExporterReads.exporters(view)) {
                seen.add(e.name());
                ExportRunner r = running.get(e.name());
                boolean mine = nodeId.equals(e.runner()) && !e.paused() && now < e.leaseUntil();
                if (!writes || e.paused() || !mine || r != null && r.generation() != e.generation()) {
                    stop(e.name());
                }
                if (!writes || e.paused()) {
                    continue;
                }
                if (mine) {
                    r = running.get(e.name());
                    if (r == null || r.stopped()) {
                        start(e);
                    }
                } else if (e.runner() == null || now >= e.leaseUntil()) {
                    claim(e);
                }
            }
            for (String name : Set.copyOf(running.keySet())) {
                if (!seen.contains(name)) {
                    stop(name);
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("exporter check skipped: {}", e.toString());
        }
    }

    private void start(Exporter e) {
        ExportRunner r = new ExportRunner(e.name(), e.generation(), nodeId, access, journal, leaseMs, autoContext);
        running.put(e.name(), r);
        runners.execute(r);
        LOG.info("exporter {} runs on this node from offset {}", e.name(), e.offset());
    }

    private void stop(String name) {
        ExportRunner r = running.remove(name);
        if (r != null) {
            r.stop();
        }
    }

    private void claim(Exporter e) {
        if (!claiming.add(e.name())) {
            return;
        }
        journal.submit(new ExporterProgress(e.name(), nodeId, e.generation(), leaseMs, null, e.trace()), PRINCIPAL)
                .whenComplete((a, err) -> claiming.remove(e.name()));
    }

    /** Stops the runners and gives their leases up, so that another node takes them over at once. */
    @Override
    public void close() {
        ticks.shutdownNow();
        for (ExportRunner r : running.values()) {
            r.stop();
            try {
                journal.submit(new ExporterProgress(r.name(), nodeId, r.generation(), 0, null, null), PRINCIPAL)
                        .get(2, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.debug("exporter {}: lease not given up ({}); it expires", r.name(), e.toString());
            }
        }
        runners.shutdownNow();
    }
}
