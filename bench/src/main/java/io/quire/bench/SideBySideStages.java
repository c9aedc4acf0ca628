package io.quire.bench;

import io.vertx.core.net.NetServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** The side-by-side stages: the machine's HTTP limit, Quire with and without injected storage latency, PostgreSQL's single-row sequence. */
final class SideBySideStages extends Stage {

    SideBySideStages(Stage shared) {
        super(shared);
    }

    // --- the machine's HTTP limit -----------------------------------------------------------------

    void trivialServer() throws Exception {
        int port = Processes.freePort();
        Process p = start(o.out().resolve("logs/trivial.log"), List.of("-Xmx512m"), "-cp", benchJar(),
                "io.quire.bench.TrivialServer", Integer.toString(port));
        Processes.awaitLog(o.out().resolve("logs/trivial.log"), "trivial server on", Duration.ofSeconds(60));
        Workloads.Endpoint e = new Workloads.Endpoint("127.0.0.1", port);
        long[] ids = {1, 2, 3};
        for (int users : List.of(50, 200)) {
            measure("trivial-vertx", "reads", users, Workloads.readById(client, e, ids, false));
        }
        stop(p);
    }

    // --- Quire, one node, storage on loopback -----------------------------------------------------

    void quireWithoutInjectedLatency() throws Exception {
        Path dir = o.out().resolve("quire");
        int brokerPort = Processes.freePort();
        Process broker = startBroker(dir.resolve("broker"), brokerPort, 0, "broker");
        String bootstrap = "127.0.0.1:" + brokerPort;
        Node a = startNode("node-a", dir.resolve("node-a"), bootstrap);

        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        int loaded = 0;
        int firstSize = o.sizes().get(0);
        loaded += ingest(a.endpoint(), firstSize, ids, "ingest-" + firstSize);
        long[] idArray = ids.stream().mapToLong(Long::longValue).toArray();

        for (int users : List.of(50, 200)) {
            measure("quire", "reads", users, Workloads.readById(client, a.endpoint(), idArray, false));
        }
        measure("quire", "reads-skewed", 200, Workloads.readById(client, a.endpoint(), idArray, true));
        for (int writers : List.of(5, 20, 100, 200)) {
            measure("quire", "writes", writers, Workloads.registerNew(client, a.endpoint(), "w" + writers + "-" + runId()));
        }
        measure("quire", "mixed-5pct-writes", 150, Workloads.mixed(
                Workloads.readById(client, a.endpoint(), idArray, false),
                Workloads.registerNew(client, a.endpoint(), "m-" + runId()), 0.05));
        facts.put("rssMiB.node-a.afterRuns", Processes.rssMiB(a.process()));

        Node b = startNode("node-b", dir.resolve("node-b"), bootstrap);
        Recorder accepted = new Recorder(3);
        Recorder appliedElsewhere = new Recorder(3);
        Result ryw = measure("quire-2-nodes", "write-A-read-B", 20,
                Workloads.writeHereReadThere(client, a.endpoint(), b.endpoint(), "x-" + runId(), accepted, appliedElsewhere));
        // The recorders ran through warm-up too; what matters is their shape: keep both percentiles.
        Histogram acc = accepted.getIntervalHistogram();
        Histogram app = appliedElsewhere.getIntervalHistogram();
        ryw.extra().put("acceptedP50Micros", acc.getValueAtPercentile(50));
        ryw.extra().put("acceptedP99Micros", acc.getValueAtPercentile(99));
        ryw.extra().put("appliedElsewhereP50Micros", app.getValueAtPercentile(50));
        ryw.extra().put("appliedElsewhereP99Micros", app.getValueAtPercentile(99));
        stop(b.process());

        for (int size : o.sizes()) {
            if (size > loaded) {
                loaded += ingest(a.endpoint(), size - loaded, ids, "ingest-to-" + size);
            }
            long[] all = ids.stream().mapToLong(Long::longValue).toArray();
            Result r = measure("quire@" + size, "reads", 200, Workloads.readById(client, a.endpoint(), all, false));
            r.extra().put("datasetSize", size);
            r.extra().put("rssMiB", Processes.rssMiB(a.process()));
            facts.put("rssMiB.node-a.at" + size, Processes.rssMiB(a.process()));
        }

        // Rebuild: the view wiped, the whole journal replayed through the applier.
        long journal = position(a.endpoint()) + 1;
        stop(a.process());
        deleteTree(dir.resolve("node-a/streams"));
        long r0 = System.nanoTime();
        Node rebuilt = startNode("node-a-rebuild", dir.resolve("node-a"), bootstrap, a.port());
        double rebuildSeconds = (System.nanoTime() - r0) / 1e9;
        double replaySeconds = replayMillis(o.out().resolve("logs/node-a-rebuild.log")) / 1000.0;
        facts.put("rebuild", Map.of("journalRecords", journal, "secondsToReadyIncludingJvmStart", round(rebuildSeconds),
                "replaySeconds", round(replaySeconds), "recordsPerSecond", Math.round(journal / replaySeconds)));
        log(String.format("rebuild: %d records replayed in %.1f s (%.0f/s), ready %.1f s after the JVM started",
                journal, replaySeconds, journal / replaySeconds, rebuildSeconds));
        stop(rebuilt.process());
        stop(broker);
    }

    // --- Quire with the capacity guide's storage latency ------------------------------------------

    void quireWithInjectedLatency() throws Exception {
        Path dir = o.out().resolve("quire-latency");
        int brokerPort = Processes.freePort();
        int proxyPort = Processes.freePort();
        NetServer proxy = new LatencyProxy(vertx, o.rttMs(), o.jitterMs()).listen(proxyPort, "127.0.0.1", brokerPort);
        Process broker = startBroker(dir.resolve("broker"), brokerPort, proxyPort, "broker-latency");
        Node n = startNode("node-latency", dir.resolve("node"), "127.0.0.1:" + proxyPort);
        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        ingest(n.endpoint(), 2_000, ids, "ingest-latency");
        long[] idArray = ids.stream().mapToLong(Long::longValue).toArray();
        for (int writers : List.of(5, 20, 100, 200)) {
            measure("quire+" + (int) o.rttMs() + "ms", "writes", writers,
                    Workloads.registerNew(client, n.endpoint(), "l" + writers + "-" + runId()));
        }
        measure("quire+" + (int) o.rttMs() + "ms", "reads", 200, Workloads.readById(client, n.endpoint(), idArray, false));
        stop(n.process());
        stop(broker);
        proxy.close();
    }

    // --- the single-row sequence on PostgreSQL ----------------------------------------------------

    void postgres() throws Exception {
        Postgres pg = Postgres.start(o.out().resolve("postgres"), o.pgBin());
        if (pg == null) {
            facts.put("postgres", "skipped: no PostgreSQL server found (bench/run.sh installs it from Debian)");
            log("PostgreSQL not found; skipping the sequence baseline");
            return;
        }
        try {
            int proxyPort = Processes.freePort();
            NetServer proxy = new LatencyProxy(vertx, o.rttMs(), o.jitterMs()).listen(proxyPort, "127.0.0.1", pg.port());
            SequenceBaseline.prepare(pg.jdbcUrl(pg.port()));
            for (int writers : List.of(5, 20, 100, 200)) {
                Result r = SequenceBaseline.run(pg.jdbcUrl(proxyPort), writers, o.warmup(), o.measure());
                record(new Result("postgresql-sequence+" + (int) o.rttMs() + "ms", r.scenario(), r.users(), r.seconds(),
                        r.ok(), r.errors(), r.p50(), r.p90(), r.p95(), r.p99(), r.p999(), r.max(), r.perSecond(),
                        r.extra()));
            }
            record(SequenceBaseline.run(pg.jdbcUrl(pg.port()), 20, o.warmup(), o.measure()));
            proxy.close();
        } finally {
            pg.stop();
        }
    }
}
