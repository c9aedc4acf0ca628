package io.quire.bench;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The bench suite: the capacity guide's methodology against Quire, side by side with the machine's
 * HTTP limit and the single-row sequence pattern on PostgreSQL, in one run.
 *
 * <pre>
 * bench/run.sh            # default suite, under 15 minutes on 2 cores
 * bench/run.sh --full     # longer windows, datasets up to 1.5 M schemas
 * </pre>
 *
 * <p>This file is the script of the run: the options and the stages in the order they run. Each
 * stage lives in a class of its own ({@link SideBySideStages}, {@link SteadyStage},
 * {@link ReplayStage}, {@link ScaleStage}) over the {@link Stage} every one shares; the machinery
 * (closed loop, proxy, baselines, report, charts) lives in its own classes.
 */
public final class Suite extends Stage {

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

    Suite(Options o) {
        this(o, Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2)));
    }

    private Suite(Options o, Vertx vertx) {
        super(o, vertx, vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(512)), new ArrayList<>(), new LinkedHashMap<>(), new ArrayList<>());
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
            new SideBySideStages(this).trivialServer();
        }
        if (o.stages().contains("quire")) {
            new SideBySideStages(this).quireWithoutInjectedLatency();
        }
        if (o.stages().contains("steady")) {
            new SteadyStage(this).steadyWrites();
        }
        if (o.stages().contains("latency")) {
            new SideBySideStages(this).quireWithInjectedLatency();
        }
        if (o.stages().contains("postgres")) {
            new SideBySideStages(this).postgres();
        }
        if (o.stages().contains("replay")) {
            new ReplayStage(this).replay();
        }
        if (o.stages().contains("scale")) {
            new ScaleStage(this).scale();
        }

        facts.put("suiteSeconds", (System.nanoTime() - t0) / 1_000_000_000L);
        Report.write(o.out(), facts, results);
        log("report written to " + o.out().resolve("report.md"));
    }
}
