package io.quire.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.NetServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The bench suite: the capacity guide's methodology against Quire, side by side with the machine's
 * HTTP limit and the single-row sequence pattern on PostgreSQL, in one run.
 *
 * <pre>
 * bench/run.sh            # default suite, under 15 minutes on 2 cores
 * bench/run.sh --full     # longer windows, datasets up to 1.5 M schemas
 * </pre>
 *
 * <p>Why one file of this size: it is the script of the run — the stages in the order they run,
 * each a few lines that start what it needs, measure and record — and reads best top to bottom;
 * the machinery (closed loop, proxy, baselines, report, charts) lives in its own classes.
 */
public final class Suite {

    record Options(Path quireJar, Path out, boolean full, Duration warmup, Duration measure, List<Integer> sizes,
                   String pgBin, double rttMs, double jitterMs, String nodeHeap, List<String> stages,
                   int replayRegistrations, List<Integer> scaleSizes, List<String> nodeJvm, Duration settleLimit,
                   String scaleNodeHeap) {

        static Options parse(String[] args) {
            Map<String, String> m = new LinkedHashMap<>();
            boolean full = false;
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--full")) {
                    full = true;
                } else if (args[i].startsWith("--") && i + 1 < args.length) {
                    m.put(args[i].substring(2), args[++i]);
                } else {
                    throw new IllegalArgumentException("unexpected argument " + args[i]);
                }
            }
            List<Integer> sizes = full ? List.of(100_000, 400_000, 800_000, 1_500_000) : List.of(10_000, 50_000);
            if (m.containsKey("sizes")) {
                sizes = Stream.of(m.get("sizes").split(",")).map(Integer::parseInt).toList();
            }
            return new Options(Path.of(m.getOrDefault("quire-jar", "query-node/target/quire.jar")),
                    Path.of(m.getOrDefault("out", "bench/results/" + Instant.now().toString().replace(':', '-'))), full,
                    Duration.ofSeconds(Long.parseLong(m.getOrDefault("warmup", full ? "40" : "10"))),
                    Duration.ofSeconds(Long.parseLong(m.getOrDefault("duration", full ? "120" : "15"))), sizes,
                    m.getOrDefault("pg-bin", ""), Double.parseDouble(m.getOrDefault("rtt-ms", "15")),
                    Double.parseDouble(m.getOrDefault("jitter-ms", "5")), m.getOrDefault("node-heap", "2g"),
                    List.of(m.getOrDefault("stages", "trivial,quire,latency,postgres").split(",")),
                    Integer.parseInt(m.getOrDefault("replay-registrations", "1000000")),
                    Stream.of(m.getOrDefault("scale-sizes", "100000,1500000").split(",")).map(Integer::parseInt).toList(),
                    Stream.of(m.getOrDefault("node-jvm", "").trim().split("\\s+")).filter(a -> !a.isEmpty()).toList(),
                    Duration.ofSeconds(Long.parseLong(m.getOrDefault("settle-seconds", "300"))),
                    // The dataset stage's nodes: a node budgeted at 1 GiB (docs/capacity-planning.md).
                    m.getOrDefault("scale-node-heap", "512m"));
        }
    }

    private final Options o;
    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    private final HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(512));
    private final List<Result> results = new ArrayList<>();
    private final Map<String, Object> facts = new LinkedHashMap<>();
    private final List<Process> running = new ArrayList<>();

    Suite(Options o) {
        this.o = o;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Suite s = new Suite(Options.parse(args));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> s.running.forEach(Process::destroyForcibly)));
        try {
            s.run();
        } finally {
            s.running.forEach(Process::destroyForcibly);
            s.vertx.close();
        }
        System.exit(0);
    }

    void run() throws Exception {
        Files.createDirectories(o.out());
        long t0 = System.nanoTime();
        facts.put("started", Instant.now().toString());
        facts.put("machine", Machine.describe());
        facts.put("settings", Map.ofEntries(Map.entry("warmupSeconds", o.warmup().toSeconds()),
                Map.entry("measureSeconds", o.measure().toSeconds()), Map.entry("full", o.full()),
                Map.entry("datasetSizes", o.sizes()), Map.entry("injectedRttMs", o.rttMs()),
                Map.entry("injectedJitterMs", o.jitterMs()), Map.entry("nodeHeap", o.nodeHeap()),
                Map.entry("scaleNodeHeap", o.scaleNodeHeap()), Map.entry("nodeJvmOptions", String.join(" ", o.nodeJvm())),
                Map.entry("settleLimitSeconds", o.settleLimit().toSeconds())));

        if (o.stages().contains("trivial")) {
            trivialServer();
        }
        if (o.stages().contains("quire")) {
            quireWithoutInjectedLatency();
        }
        if (o.stages().contains("steady")) {
            steadyWrites();
        }
        if (o.stages().contains("latency")) {
            quireWithInjectedLatency();
        }
        if (o.stages().contains("postgres")) {
            postgres();
        }
        if (o.stages().contains("replay")) {
            replay();
        }
        if (o.stages().contains("scale")) {
            scale();
        }

        facts.put("suiteSeconds", (System.nanoTime() - t0) / 1_000_000_000L);
        Report.write(o.out(), facts, results);
        log("report written to " + o.out().resolve("report.md"));
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
        loaded += ingest(a.endpoint, firstSize, ids, "ingest-" + firstSize);
        long[] idArray = ids.stream().mapToLong(Long::longValue).toArray();

        for (int users : List.of(50, 200)) {
            measure("quire", "reads", users, Workloads.readById(client, a.endpoint, idArray, false));
        }
        measure("quire", "reads-skewed", 200, Workloads.readById(client, a.endpoint, idArray, true));
        for (int writers : List.of(5, 20, 100, 200)) {
            measure("quire", "writes", writers, Workloads.registerNew(client, a.endpoint, "w" + writers + "-" + runId()));
        }
        measure("quire", "mixed-5pct-writes", 150, Workloads.mixed(
                Workloads.readById(client, a.endpoint, idArray, false),
                Workloads.registerNew(client, a.endpoint, "m-" + runId()), 0.05));
        facts.put("rssMiB.node-a.afterRuns", Processes.rssMiB(a.process));

        Node b = startNode("node-b", dir.resolve("node-b"), bootstrap);
        Recorder accepted = new Recorder(3);
        Recorder appliedElsewhere = new Recorder(3);
        Result ryw = measure("quire-2-nodes", "write-A-read-B", 20,
                Workloads.writeHereReadThere(client, a.endpoint, b.endpoint, "x-" + runId(), accepted, appliedElsewhere));
        // The recorders ran through warm-up too; what matters is their shape: keep both percentiles.
        Histogram acc = accepted.getIntervalHistogram();
        Histogram app = appliedElsewhere.getIntervalHistogram();
        ryw.extra().put("acceptedP50Micros", acc.getValueAtPercentile(50));
        ryw.extra().put("acceptedP99Micros", acc.getValueAtPercentile(99));
        ryw.extra().put("appliedElsewhereP50Micros", app.getValueAtPercentile(50));
        ryw.extra().put("appliedElsewhereP99Micros", app.getValueAtPercentile(99));
        stop(b.process);

        for (int size : o.sizes()) {
            if (size > loaded) {
                loaded += ingest(a.endpoint, size - loaded, ids, "ingest-to-" + size);
            }
            long[] all = ids.stream().mapToLong(Long::longValue).toArray();
            Result r = measure("quire@" + size, "reads", 200, Workloads.readById(client, a.endpoint, all, false));
            r.extra().put("datasetSize", size);
            r.extra().put("rssMiB", Processes.rssMiB(a.process));
            facts.put("rssMiB.node-a.at" + size, Processes.rssMiB(a.process));
        }

        // Rebuild: the view wiped, the whole journal replayed through the applier.
        long journal = position(a.endpoint) + 1;
        stop(a.process);
        deleteTree(dir.resolve("node-a/streams"));
        long r0 = System.nanoTime();
        Node rebuilt = startNode("node-a-rebuild", dir.resolve("node-a"), bootstrap, a.port);
        double rebuildSeconds = (System.nanoTime() - r0) / 1e9;
        double replaySeconds = replayMillis(o.out().resolve("logs/node-a-rebuild.log")) / 1000.0;
        facts.put("rebuild", Map.of("journalRecords", journal, "secondsToReadyIncludingJvmStart", round(rebuildSeconds),
                "replaySeconds", round(replaySeconds), "recordsPerSecond", Math.round(journal / replaySeconds)));
        log(String.format("rebuild: %d records replayed in %.1f s (%.0f/s), ready %.1f s after the JVM started",
                journal, replaySeconds, journal / replaySeconds, rebuildSeconds));
        stop(rebuilt.process);
        stop(broker);
    }

    // --- registrations at steady state ---------------------------------------------------------------

    /**
     * Registrations at 200 writers on a fresh node and broker per scenario, measured once the JIT
     * has settled: new subjects, and new versions of 40 subjects checked against their latest
     * version (texts distinct, and each text registered to two subjects). Short windows after a
     * short warm-up measure the compiler as much as the node: under this load C2's queue takes
     * one to two minutes to drain on two cores. Driven by wrk where it is installed (bench/run.sh
     * installs it), beside the trivial server under the same wrk: the machine's HTTP limit in
     * the same units. Without wrk, the suite's own generator, which leaves the server less CPU.
     */
    void steadyWrites() throws Exception {
        Path dir = o.out().resolve("quire-steady");
        record Scenario(String name, String script, Map<String, String> env,
                        java.util.function.Function<Workloads.Endpoint, ClosedLoop.Operation> op) {
        }
        String run = runId();
        boolean wrk = Wrk.available();
        facts.put("steadyLoadGenerator", wrk ? "wrk -t2" : "the suite's own (wrk not installed)");
        if (wrk) {
            int port = Processes.freePort();
            Process p = start(o.out().resolve("logs/trivial-wrk.log"), List.of("-Xmx512m"), "-cp", benchJar(),
                    "io.quire.bench.TrivialServer", Integer.toString(port));
            Processes.awaitLog(o.out().resolve("logs/trivial-wrk.log"), "trivial server on", Duration.ofSeconds(60));
            String url = "http://127.0.0.1:" + port;
            Wrk.run(Wrk.script("read-one.lua"), 200, (int) o.warmup().toSeconds(), url, Map.of());
            record(Wrk.parse("trivial-vertx", "reads-wrk", 200,
                    Wrk.run(Wrk.script("read-one.lua"), 200, (int) o.measure().toSeconds(), url, Map.of())));
            stop(p);
        }
        for (Scenario sc : List.of(
                new Scenario("writes-new", "register.lua", Map.of(), e -> Workloads.registerNew(client, e, "s-" + run)),
                new Scenario("writes-evolving", "evolve.lua", Map.of("EVOLVE_DISTINCT", "1"),
                        e -> Workloads.registerEvolving(client, e, "d-" + run, 40, true)),
                new Scenario("writes-evolving-repeated", "evolve.lua", Map.of(),
                        e -> Workloads.registerEvolving(client, e, "r-" + run, 40, false)))) {
            int brokerPort = Processes.freePort();
            Process broker = startBroker(dir.resolve(sc.name() + "/broker"), brokerPort, 0, "broker-" + sc.name());
            Node n = startNode("node-" + sc.name(), dir.resolve(sc.name() + "/node"), "127.0.0.1:" + brokerPort);
            JitSettle settle = new JitSettle(o.settleLimit(), n.process().pid(), broker.pid());
            Result r;
            if (wrk) {
                String url = "http://127.0.0.1:" + n.port();
                Path script = Wrk.script(sc.script());
                long t0 = System.nanoTime();
                Wrk.run(script, 200, (int) o.warmup().toSeconds(), url, sc.env());
                long settleUntil = System.nanoTime() + o.settleLimit().toNanos();
                while (System.nanoTime() < settleUntil
                        && !settle.steadyOver(() -> Wrk.run(script, 200, 10, url, sc.env()))) {
                    // not steady yet: keep warming up
                }
                double warmed = (System.nanoTime() - t0) / 1e9;
                settle.measuring();
                r = Wrk.parse("quire-steady", sc.name(), 200,
                        Wrk.run(script, 200, (int) o.measure().toSeconds(), url, sc.env()));
                r.extra().put("warmupSeconds", round(warmed));
            } else {
                r = ClosedLoop.run(vertx, "quire-steady", sc.name(), 200, o.warmup(), settle, o.measure(),
                        sc.op().apply(n.endpoint()));
            }
            String[] perRequest = {"nodeCpuMicrosPerRequest", "brokerCpuMicrosPerRequest"}; // in the order of the pids
            for (int i = 0; i < perRequest.length; i++) {
                double cpu = settle.cpuSinceWindow(i);
                if (cpu >= 0 && r.ok() > 0) {
                    r.extra().put(perRequest[i], Math.round(cpu * 1e6 / (r.ok() + r.errorCount())));
                }
            }
            double jit = settle.compilerCpu() - settle.compilerCpuAtWindow;
            r.extra().put("compilerCpuSecondsInWindow", round(jit));
            r.extra().put("settled", settle.settled);
            r.extra().put("rssMiB", Processes.rssMiB(n.process()));
            record(r);
            stop(n.process());
            stop(broker);
        }
    }

    /**
     * Steady when the compiler threads of the node and its broker used under a tenth of a core over
     * 10 s of load (what bench/cpu-compare.sh waits for). Notes the node's CPU and the compilers'
     * when the measured window starts.
     */
    static final class JitSettle implements ClosedLoop.Settle {
        /** Ten seconds of load. */
        interface Load {
            void run() throws IOException, InterruptedException;
        }

        private final Duration limit;
        private final long[] pids;
        private final double[] cpuAtWindow;
        volatile boolean settled;
        volatile double compilerCpuAtWindow;

        JitSettle(Duration limit, long... pids) {
            this.limit = limit;
            this.pids = pids;
            this.cpuAtWindow = new double[pids.length];
            java.util.Arrays.fill(cpuAtWindow, -1);
        }

        double compilerCpu() {
            double sum = 0;
            for (long pid : pids) {
                sum += Math.max(0, Processes.cpuSeconds(pid, Processes.COMPILER_THREADS));
            }
            return sum;
        }

        /** Runs {@code tenSeconds} and answers whether the compilers used under a tenth of a core meanwhile. */
        boolean steadyOver(Load tenSeconds) throws IOException, InterruptedException {
            double before = compilerCpu();
            tenSeconds.run();
            settled = compilerCpu() - before < 1.0;
            return settled;
        }

        /** The load runs on its own (the suite's generator): watch it for 10 s. */
        @Override
        public boolean watch() throws InterruptedException {
            try {
                return steadyOver(() -> Thread.sleep(10_000));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e); // a sleep does no I/O
            }
        }

        @Override
        public Duration limit() {
            return limit;
        }

        @Override
        public void measuring() {
            for (int i = 0; i < pids.length; i++) {
                cpuAtWindow[i] = Processes.cpuSeconds(pids[i]);
            }
            compilerCpuAtWindow = compilerCpu();
        }

        /** CPU seconds the i-th process used since the window opened; -1 where /proc could not tell. */
        double cpuSinceWindow(int i) {
            double now = Processes.cpuSeconds(pids[i]);
            return cpuAtWindow[i] < 0 || now < 0 ? -1 : now - cpuAtWindow[i];
        }
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
        ingest(n.endpoint, 2_000, ids, "ingest-latency");
        long[] idArray = ids.stream().mapToLong(Long::longValue).toArray();
        for (int writers : List.of(5, 20, 100, 200)) {
            measure("quire+" + (int) o.rttMs() + "ms", "writes", writers,
                    Workloads.registerNew(client, n.endpoint, "l" + writers + "-" + runId()));
        }
        measure("quire+" + (int) o.rttMs() + "ms", "reads", 200, Workloads.readById(client, n.endpoint, idArray, false));
        stop(n.process);
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

    // --- replay, snapshot bootstrap and id leases on a big journal -----------------------------------

    /**
     * A journal of {@code --replay-registrations} registrations (1 M by default, plus a lease per
     * 1,000) loaded with {@code journal import}; a fresh node replays all of it; the node writes a
     * snapshot; 20,000 more registrations arrive over HTTP (leasing id blocks as they go); a second
     * fresh node starts from the snapshot and replays only that tail.
     */
    void replay() throws Exception {
        Path dir = o.out().resolve("replay");
        Files.createDirectories(dir);
        Path file = dir.resolve("journal.ndjson");
        long t0 = System.nanoTime();
        long records = SyntheticJournal.write(file, o.replayRegistrations());
        log(String.format("replay: wrote %,d synthetic journal records in %.1f s", records, (System.nanoTime() - t0) / 1e9));
        int brokerPort = Processes.freePort();
        Process broker = startBroker(dir.resolve("broker"), brokerPort, 0, "broker-replay");
        String bootstrap = "127.0.0.1:" + brokerPort;
        long i0 = System.nanoTime();
        Process load = start(o.out().resolve("logs/journal-import.log"), List.of("-Xmx1g"), "-jar",
                o.quireJar().toString(), "journal", "import", "--file", file.toString(), "--bootstrap-servers", bootstrap,
                "--journal-replication", "1", "--journal-min-isr", "1");
        if (load.waitFor() != 0) {
            throw new IllegalStateException("journal import failed: see logs/journal-import.log");
        }
        running.remove(load);
        double importSeconds = (System.nanoTime() - i0) / 1e9;
        Files.delete(file);

        long r0 = System.nanoTime();
        Node a = startNode("replay-a", dir.resolve("node-a"), bootstrap);
        double readySeconds = (System.nanoTime() - r0) / 1e9;
        double replaySeconds = replayMillis(o.out().resolve("logs/replay-a.log")) / 1000.0;
        long secondHalf = secondHalfRate(o.out().resolve("logs/replay-a.log"));
        long viewBytes = du(dir.resolve("node-a/streams"));
        log(String.format("replay: %,d records replayed by a fresh node in %.1f s (%.0f records/s, the second half at "
                + "%,d records/s); ready %.1f s after its JVM started; view %,d MiB on disk", records, replaySeconds,
                records / replaySeconds, secondHalf, readySeconds, viewBytes >> 20));

        long s0 = System.nanoTime();
        Workloads.Answer snap = Workloads.call(client, a.endpoint(), HttpMethod.POST, "/admin/snapshot", null, null, null)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
        double snapshotSeconds = (System.nanoTime() - s0) / 1e9;
        var snapJson = snap.body().toJsonObject();
        log(String.format("replay: snapshot at offset %d, %,d MiB, in %.2f s", snapJson.getLong("offset"),
                snapJson.getLong("bytes") >> 20, snapshotSeconds));

        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        ingest(a.endpoint(), 20_000, ids, "replay-tail");
        long end = position(a.endpoint()) + 1;
        Map<String, Double> lease = leaseTimer(a.endpoint());
        log(String.format("replay: %s id-block leases of 1,000 ids: mean %.2f ms, max %.2f ms (%.2f µs per id)",
                lease.get("count").longValue(), lease.get("meanMs"), lease.get("maxMs"), lease.get("meanMs")));

        long b0 = System.nanoTime();
        Node b = startNode("replay-b", dir.resolve("node-b"), bootstrap, Processes.freePort(),
                List.of("--bootstrap-snapshot", snapJson.getString("path")));
        double bootSeconds = (System.nanoTime() - b0) / 1e9;
        double tailSeconds = replayMillis(o.out().resolve("logs/replay-b.log")) / 1000.0;
        long tail = end - 1 - snapJson.getLong("offset");
        log(String.format("replay: a node bootstrapped from the snapshot replayed %,d tail records in %.1f s and was "
                + "ready %.1f s after its JVM started (full replay: %.1f s)", tail, tailSeconds, bootSeconds, readySeconds));
        // B is done: stopped first, so that its work after ready (compacting the level-0 files its
        // catch-up left) does not take the cores from C's start.
        stop(b.process());
        // A node on an empty disk that fetches a fresh snapshot from node A over HTTP.
        long c0 = System.nanoTime();
        Node c = startNode("replay-c", dir.resolve("node-c"), bootstrap, Processes.freePort(),
                List.of("--bootstrap-snapshot", "http://127.0.0.1:" + a.port()));
        double fetchedReadySeconds = (System.nanoTime() - c0) / 1e9;
        log(String.format("replay: a node on an empty disk fetched a snapshot from a running node over HTTP and was "
                + "ready %.1f s after its JVM started", fetchedReadySeconds));
        stop(c.process());
        // Node A stopped and started again on its own view: a restart with nothing to catch up,
        // reading the absent-key filters its view saved when it closed.
        long rssA = Processes.rssMiB(a.process());
        stop(a.process());
        long a0 = System.nanoTime();
        Node restarted = startNode("replay-a-restart", dir.resolve("node-a"), bootstrap);
        double restartReadySeconds = (System.nanoTime() - a0) / 1e9;
        log(String.format("replay: the first node, stopped and started again on its view, was ready %.1f s after its "
                + "JVM started", restartReadySeconds));
        stop(restarted.process());
        Map<String, Object> replay = new java.util.LinkedHashMap<>();
        replay.put("journalRecords", records);
        replay.put("journalImportSeconds", round(importSeconds));
        replay.put("fullReplaySeconds", round(replaySeconds));
        replay.put("fullReplayRecordsPerSecond", Math.round(records / replaySeconds));
        replay.put("secondHalfRecordsPerSecond", secondHalf);
        replay.put("freshNodeReadySeconds", round(readySeconds));
        replay.put("viewMiB", viewBytes >> 20);
        replay.put("snapshot", Map.of("offset", snapJson.getLong("offset"), "MiB", snapJson.getLong("bytes") >> 20,
                "seconds", round(snapshotSeconds)));
        replay.put("snapshotBootstrap", Map.of("tailRecords", tail, "tailReplaySeconds", round(tailSeconds),
                "readySeconds", round(bootSeconds), "fetchedOverHttpReadySeconds", round(fetchedReadySeconds)));
        replay.put("idLease", lease);
        replay.put("restartReadySeconds", round(restartReadySeconds));
        replay.put("rssMiB", rssA);
        facts.put("replay", replay);
        stop(broker);
    }

    // --- reads and memory against the dataset size, datasets loaded through the journal ----------

    /**
     * For each of {@code --scale-sizes} (100,000 and 1,500,000 by default): a synthetic journal of
     * that many registrations (ids 1..N, four versions per subject) loaded with {@code journal
     * import} into a broker of its own, a fresh node replaying it, then reads by id over uniformly
     * drawn ids at 200 clients, registrations of new subjects at 200 writers and the 5 % write mix,
     * the node's RSS after each, and its view on disk. Loading through the journal
     * instead of HTTP is what makes the 1.5 M point take minutes rather than an hour.
     */
    void scale() throws Exception {
        Map<String, Object> points = new java.util.LinkedHashMap<>();
        for (int size : o.scaleSizes()) {
            Path dir = o.out().resolve("scale-" + size);
            Files.createDirectories(dir);
            Path file = dir.resolve("journal.ndjson");
            long records = SyntheticJournal.write(file, size);
            int brokerPort = Processes.freePort();
            Process broker = startBroker(dir.resolve("broker"), brokerPort, 0, "broker-scale-" + size);
            String bootstrap = "127.0.0.1:" + brokerPort;
            Process load = start(o.out().resolve("logs/journal-import-" + size + ".log"), List.of("-Xmx1g"), "-jar",
                    o.quireJar().toString(), "journal", "import", "--file", file.toString(), "--bootstrap-servers",
                    bootstrap, "--journal-replication", "1", "--journal-min-isr", "1");
            if (load.waitFor() != 0) {
                throw new IllegalStateException("journal import failed: see logs/journal-import-" + size + ".log");
            }
            running.remove(load);
            Files.delete(file);
            long r0 = System.nanoTime();
            Node node = startNode("scale-" + size, dir.resolve("node"), bootstrap, Processes.freePort(), List.of(),
                    o.scaleNodeHeap());
            double readySeconds = (System.nanoTime() - r0) / 1e9;
            // A node fresh from a long catch-up compacts its view for a while (15 s at 1.5 M), which takes
            // a core from the reads: measure once its files are settled, and say how long that took.
            double settleSeconds = awaitCompactions(node.endpoint(), Duration.ofMinutes(5));
            log(String.format("scale: %,d schemas: view compactions settled %.1f s after ready", size, settleSeconds));
            long[] ids = java.util.stream.LongStream.rangeClosed(1, size).toArray();
            Result r = measure("quire@" + size + "-journal", "reads", 200, Workloads.readById(client, node.endpoint(), ids,
                    false));
            long rss = Processes.rssMiB(node.process());
            r.extra().put("datasetSize", size);
            r.extra().put("rssMiB", rss);
            // Then writes (new subjects, 200 writers) and the 5 % mix over the same ids: RSS under write load.
            Result w = measure("quire@" + size + "-journal", "writes", 200, Workloads.registerNew(client,
                    node.endpoint(), "scale-" + size + "-" + runId()));
            long rssWrites = Processes.rssMiB(node.process());
            w.extra().put("datasetSize", size);
            w.extra().put("rssMiB", rssWrites);
            Result m = measure("quire@" + size + "-journal", "mixed-5pct-writes", 200, Workloads.mixed(
                    Workloads.readById(client, node.endpoint(), ids, false),
                    Workloads.registerNew(client, node.endpoint(), "scale-m-" + size + "-" + runId()), 0.05));
            long rssMixed = Processes.rssMiB(node.process());
            m.extra().put("datasetSize", size);
            m.extra().put("rssMiB", rssMixed);
            long disk = du(dir.resolve("node/streams")) >> 20;
            // A node on an empty disk that fetches a fresh snapshot of this one over HTTP.
            long f0 = System.nanoTime();
            Node fetched = startNode("scale-" + size + "-fetch", dir.resolve("node-fetch"), bootstrap,
                    Processes.freePort(), List.of("--bootstrap-snapshot", "http://127.0.0.1:" + node.port()), o.scaleNodeHeap());
            double fetchedSeconds = (System.nanoTime() - f0) / 1e9;
            stop(fetched.process());
            log(String.format("scale: %,d schemas (%,d journal records): ready %.1f s after JVM start, reads %,.0f/s "
                    + "p99 %.1f ms at 200 clients, RSS %,d MiB; writes %,.0f/s p99 %.1f ms, RSS %,d MiB; 5 %% mix "
                    + "%,.0f/s p99 %.1f ms, RSS %,d MiB; view %,d MiB; a node fetching its snapshot over HTTP ready "
                    + "%.1f s after JVM start", size, records, readySeconds, r.throughput(),
                    r.p99() / 1000.0, rss, w.throughput(), w.p99() / 1000.0, rssWrites, m.throughput(),
                    m.p99() / 1000.0, rssMixed, disk, fetchedSeconds));
            Map<String, Object> point = new java.util.LinkedHashMap<>();
            point.put("journalRecords", records);
            point.put("readySeconds", round(readySeconds));
            point.put("compactionsSettledSeconds", round(settleSeconds));
            point.put("readsPerSecond", Math.round(r.throughput()));
            point.put("p99Ms", r.p99() / 1000.0);
            point.put("rssMiB", rss);
            point.put("writesPerSecond", Math.round(w.throughput()));
            point.put("writesP99Ms", w.p99() / 1000.0);
            point.put("rssMiBAfterWrites", rssWrites);
            point.put("mixedPerSecond", Math.round(m.throughput()));
            point.put("rssMiBAfterMixed", rssMixed);
            point.put("viewMiB", disk);
            point.put("fetchedSnapshotReadySeconds", round(fetchedSeconds));
            points.put(Integer.toString(size), point);
            stop(node.process());
            stop(broker);
        }
        facts.put("scale", points);
    }

    /**
     * Waits until the node's {@code quire_view_compactions} gauge reads 0 twice in a row (polled
     * every second), at most {@code limit}; returns the seconds waited.
     */
    double awaitCompactions(Workloads.Endpoint e, Duration limit) throws Exception {
        long t0 = System.nanoTime();
        int zeros = 0;
        while (System.nanoTime() - t0 < limit.toNanos()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^quire_view_compactions (\\S+)$")
                    .matcher(metrics(e));
            if (!m.find()) {
                break; // a build without the gauge
            }
            zeros = Double.parseDouble(m.group(1)) == 0 ? zeros + 1 : 0;
            if (zeros == 2) {
                break;
            }
            Thread.sleep(1000);
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The node's {@code /metrics} text. */
    String metrics(Workloads.Endpoint e) throws Exception {
        return Workloads.call(client, e, HttpMethod.GET, "/metrics", null, null, null)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).body().toString();
    }

    /** Count, mean and max of a node's {@code quire_id_lease_seconds} timer, from its metrics. */
    Map<String, Double> leaseTimer(Workloads.Endpoint e) throws Exception {
        String text = metrics(e);
        double count = 0;
        double sum = 0;
        double max = 0;
        for (String line : text.split("\n")) {
            String v = line.substring(line.lastIndexOf(' ') + 1);
            if (line.startsWith("quire_id_lease_seconds_count")) {
                count = Double.parseDouble(v);
            } else if (line.startsWith("quire_id_lease_seconds_sum")) {
                sum = Double.parseDouble(v);
            } else if (line.startsWith("quire_id_lease_seconds_max")) {
                max = Double.parseDouble(v);
            }
        }
        return Map.of("count", count, "meanMs", round(count == 0 ? 0 : sum / count * 1000), "maxMs", round(max * 1000));
    }

    static long du(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    // --- helpers ----------------------------------------------------------------------------------

    record Node(Process process, Workloads.Endpoint endpoint, int port) {
    }

    Process startBroker(Path dir, int port, int advertisedPort, String name) throws Exception {
        Path log = o.out().resolve("logs/" + name + ".log");
        Process p = start(log, List.of("-Xmx1g"), "-jar", o.quireJar().toString(), "broker", "--data-dir",
                dir.toString(), "--port", Integer.toString(port), "--advertised-port", Integer.toString(advertisedPort));
        Processes.awaitLog(log, "broker ready", Duration.ofSeconds(120));
        return p;
    }

    Node startNode(String name, Path dir, String bootstrap) throws Exception {
        return startNode(name, dir, bootstrap, Processes.freePort());
    }

    Node startNode(String name, Path dir, String bootstrap, int port) throws Exception {
        return startNode(name, dir, bootstrap, port, List.of());
    }

    Node startNode(String name, Path dir, String bootstrap, int port, List<String> extra) throws Exception {
        return startNode(name, dir, bootstrap, port, extra, o.nodeHeap());
    }

    Node startNode(String name, Path dir, String bootstrap, int port, List<String> extra, String heap) throws Exception {
        List<String> args = new ArrayList<>(List.of("-jar", o.quireJar().toString(), "serve", "--bootstrap-servers",
                bootstrap, "--port", Integer.toString(port), "--data-dir", dir.toString(), "--node-id",
                name.replace("-rebuild", "").replace("-restart", ""), "--journal-replication", "1", "--journal-min-isr", "1"));
        args.addAll(extra);
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap));
        jvm.addAll(o.nodeJvm());
        Process p = start(o.out().resolve("logs/" + name + ".log"), jvm, args.toArray(String[]::new));
        Processes.awaitHttp("http://127.0.0.1:" + port + "/health/ready", Duration.ofMinutes(30));
        return new Node(p, new Workloads.Endpoint("127.0.0.1", port), port);
    }

    /** Registers {@code count} new schemas with 100 writers; records the ingest rate. */
    int ingest(Workloads.Endpoint e, int count, ConcurrentLinkedQueue<Long> ids, String label) throws Exception {
        AtomicLong issued = new AtomicLong();
        CountDownLatch done = new CountDownLatch(100);
        String run = "p-" + runId();
        long t0 = System.nanoTime();
        for (int u = 0; u < 100; u++) {
            vertx.runOnContext(v -> ingestNext(e, count, issued, ids, run, done));
        }
        done.await(2, TimeUnit.HOURS);
        double s = (System.nanoTime() - t0) / 1e9;
        facts.put(label, Map.of("schemas", count, "seconds", round(s), "perSecond", Math.round(count / s)));
        log(String.format("%s: %d schemas in %.1f s (%.0f/s)", label, count, s, count / s));
        return count;
    }

    private void ingestNext(Workloads.Endpoint e, int count, AtomicLong issued, ConcurrentLinkedQueue<Long> ids,
                            String run, CountDownLatch done) {
        long k = issued.incrementAndGet();
        if (k > count) {
            done.countDown();
            return;
        }
        Future<Workloads.Answer> f = Workloads.call(client, e, HttpMethod.POST, "/subjects/" + run + "-" + k + "/versions",
                Workloads.schemaBody(run, k), null, null);
        f.onComplete(ar -> {
            if (ar.succeeded() && ar.result().status() == 200) {
                ids.add(ar.result().body().toJsonObject().getLong("id"));
            } else {
                issued.decrementAndGet(); // retry this one
            }
            ingestNext(e, count, issued, ids, run, done);
        });
    }

    /** The node's own account of how long its view took to catch up with the journal. */
    static long replayMillis(Path log) throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("view caught up to offset \\d+ in (\\d+) ms")
                .matcher(Files.readString(log));
        if (!m.find()) {
            throw new IllegalStateException("no catch-up line in " + log);
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * The catch-up's rate over the later half of its records (the node logs it beside the whole
     * replay's): the first seconds run while the JIT compiles. 0 when the log has none (Kafka
     * Streams applied it all, or an older build).
     */
    static long secondHalfRate(Path log) throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("the second half at (\\d+) records/s")
                .matcher(Files.readString(log));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    long position(Workloads.Endpoint e) throws Exception {
        Workloads.Answer a = Workloads.call(client, e, HttpMethod.GET, "/admin/position", null, null, null)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return a.body().toJsonObject().getLong("offset");
    }

    Result measure(String target, String scenario, int users, ClosedLoop.Operation op) throws Exception {
        Result r = ClosedLoop.run(vertx, target, scenario, users, o.warmup(), o.measure(), op);
        record(r);
        return r;
    }

    void record(Result r) {
        results.add(r);
        log(String.format("%-28s %-18s %4d clients: %9.0f/s  p50 %6.1f ms  p99 %7.1f ms  errors %d", r.target(),
                r.scenario(), r.users(), r.throughput(), r.p50() / 1000.0, r.p99() / 1000.0, r.errorCount()));
        try {
            Report.writeJson(o.out(), facts, results); // keep what was measured even if a later step fails
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    Process start(Path log, List<String> jvm, String... args) throws IOException {
        Process p = Processes.java(log, jvm, args);
        running.add(p);
        return p;
    }

    void stop(Process p) throws InterruptedException {
        Processes.stop(p);
        running.remove(p);
    }

    String benchJar() {
        return Path.of(Suite.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString();
    }

    static String runId() {
        return Long.toString(System.nanoTime(), 36);
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static void log(String line) {
        System.out.println(Instant.now().toString().substring(11, 19) + " " + line);
    }

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
}
