package io.quire.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What every stage of the suite shares: the options, the HTTP client, the results and facts of
 * the run, the processes it started; and the helpers that start brokers and nodes, ingest,
 * measure and record. A stage is made from the suite (or another stage) and works on the same run.
 */
abstract class Stage {

    final Suite.Options o;
    final Vertx vertx;
    final HttpClient client;
    final List<Result> results;
    final Map<String, Object> facts;
    final List<Process> running;

    Stage(Suite.Options o, Vertx vertx, HttpClient client, List<Result> results, Map<String, Object> facts,
          List<Process> running) {
        this.o = o;
        this.vertx = vertx;
        this.client = client;
        this.results = results;
        this.facts = facts;
        this.running = running;
    }

    Stage(Stage shared) {
        this(shared.o, shared.vertx, shared.client, shared.results, shared.facts, shared.running);
    }

    /** The node's {@code /metrics} text. */
    String metrics(Workloads.Endpoint e) throws Exception {
        return Workloads.call(client, e, HttpMethod.GET, "/metrics", null, null, null)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).body().toString();
    }

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

    /** The bytes of the files under a folder. */
    static long du(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
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
}
