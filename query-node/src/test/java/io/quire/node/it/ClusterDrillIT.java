package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.config.QuireConfig;
import io.quire.node.ops.VerifyCommand;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Failure drills on a replicated journal: three broker processes (replication 3,
 * min.insync.replicas 2) and three nodes (two in this JVM, one a process that can be killed).
 * Concurrent writers on every node; a node killed with {@code kill -9}; a broker killed; every
 * broker killed. After each: no duplicate id, no acknowledged write lost, identical digests.
 */
class ClusterDrillIT {

    static final String TOPIC = "drill-journal";
    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";
    static final int CONTROLLER_PORT = freePortUnchecked();
    static final int[] BROKER_PORTS = {freePortUnchecked(), freePortUnchecked(), freePortUnchecked()};
    static final String CLUSTER_ID = "quireDrillCluster0001A";

    static Path dir;
    static Process[] brokers = new Process[3];
    static QuireNode node1;
    static QuireNode node2;
    static Process node3;
    static volatile int node3Port;
    /** Starts of node 3 so far: its log gets one "listening" line per start. */
    static int node3Starts;
    static final Map<String, Long> acked = new ConcurrentHashMap<>();
    /** Sizes of the drill; {@code bench/drill.sh} runs the same drill with bigger ones. */
    static final int REGISTRATIONS = Integer.getInteger("quire.drill.registrations", 20_000);
    static final int NODE_KILLS = Integer.getInteger("quire.drill.node-kills", 1);
    static final int BROKER_PHASE = Math.max(4_000, REGISTRATIONS / 10);

    static String bootstrap() {
        return "127.0.0.1:" + BROKER_PORTS[0] + ",127.0.0.1:" + BROKER_PORTS[1] + ",127.0.0.1:" + BROKER_PORTS[2];
    }

    static String[] nodeArgs(String id, Path data, int port) {
        return new String[] {"--bootstrap-servers", bootstrap(), "--journal-topic", TOPIC, "--journal-replication", "3",
            "--journal-min-isr", "2", "--node-id", id, "--data-dir", data.toString(), "--port", Integer.toString(port),
            "--http-instances", "1", "--write-timeout-ms", "4000"};
    }

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("quire-drill");
        for (int b = 0; b < 3; b++) {
            brokers[b] = startBroker(b);
        }
        for (int b = 0; b < 3; b++) {
            awaitLog(dir.resolve("broker-" + (b + 1) + ".log"), "broker ready", 120);
        }
        node1 = startNode("drill-1", 0);
        node2 = startNode("drill-2", 0);
        node3 = launchNode3();
        CrashRecoveryIT.awaitReady(new Http(node3Port));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (node3 != null) {
            node3.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        for (QuireNode n : new QuireNode[] {node1, node2}) {
            if (n != null) {
                n.close();
            }
        }
        for (Process b : brokers) {
            if (b != null) {
                b.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
        deleteDataKeepingLogs();
    }

    /** The brokers' and nodes' data (~150 MB a run) go; their logs stay beside the folder for a failed run. */
    private static void deleteDataKeepingLogs() throws java.io.IOException {
        if (dir == null) {
            return;
        }
        try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                boolean log = p.getParent() != null && p.getParent().equals(dir) && p.toString().endsWith(".log");
                if (!log && !p.equals(dir)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static QuireNode startNode(String id, int port) throws Exception {
        QuireConfig c = QuireConfig.from(false, nodeArgs(id, dir.resolve(id), port), Map.of());
        return Nodes.start(c);
    }

    /** Node 3 as a process of its own (so it can be killed with SIGKILL); it chooses its port and logs it. */
    static Process launchNode3() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx512m", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
                "io.quire.node.Main", "serve"));
        cmd.addAll(List.of(nodeArgs("drill-3", dir.resolve("drill-3"), 0)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("node-3.log").toFile())).start();
        node3Port = Nodes.portFromLog(dir.resolve("node-3.log"), ++node3Starts, 120);
        return p;
    }

    static Process startBroker(int b) throws IOException {
        List<String> cmd = List.of(java(), "-Xmx512m", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
                "io.quire.node.Main", "broker", "--data-dir", dir.resolve("broker-" + (b + 1)).toString(),
                "--node-id", Integer.toString(b + 1), "--controller", Boolean.toString(b == 0),
                "--port", Integer.toString(BROKER_PORTS[b]), "--controller-port", Integer.toString(CONTROLLER_PORT),
                "--voters", "1@127.0.0.1:" + CONTROLLER_PORT, "--cluster-id", CLUSTER_ID,
                "--internal-replication", "3");
        File log = dir.resolve("broker-" + (b + 1) + ".log").toFile();
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log))
                .start();
    }

    private static volatile List<Http> clients = List.of();

    /** One client per node, made again only when node 3 restarted on another port. */
    List<Http> nodes() {
        List<Http> now = clients;
        if (now.size() != 3 || now.get(2).port() != node3Port) {
            now = List.of(new Http(node1.httpPort()), new Http(node2.httpPort()), new Http(node3Port));
            clients = now;
        }
        return now;
    }

    /**
     * Writers spread over the nodes; a client that gets no answer or a 5xx retries the same schema on
     * the next node, as a client configured with several registry URLs does (registering the same
     * schema again is idempotent). Returns how many registrations were acknowledged in the end.
     */
    static Future<Integer> writers(java.util.function.Supplier<List<Http>> nodes, String prefix, int threads,
                                   AtomicBoolean stop, int max, ExecutorService pool) {
        AtomicInteger seq = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        List<Future<?>> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            all.add(pool.submit(() -> {
                while (!stop.get()) {
                    int k = seq.incrementAndGet();
                    if (k > max) {
                        return;
                    }
                    String subject = prefix + "-" + k;
                    String body = schemaBody(record(prefix.replace('-', '_') + "_" + k, NAME));
                    for (int attempt = 0; attempt < 60 && !stop.get(); attempt++) {
                        try {
                            List<Http> now = nodes.get(); // node 3 has a new port after each restart
                            Http.Response r = now.get((thread + k + attempt) % now.size())
                                    .post("/subjects/" + subject + "/versions", body);
                            if (r.status() == 200) {
                                acked.put(subject, r.json().get("id").asLong());
                                ok.incrementAndGet();
                                break;
                            }
                            if (r.status() < 500) {
                                throw new AssertionError(subject + " refused: " + r.body());
                            }
                        } catch (java.io.UncheckedIOException e) {
                            // that node is down: try the next one
                        }
                        sleep(250);
                    }
                }
            }));
        }
        return pool.submit(() -> {
            for (Future<?> f : all) {
                f.get();
            }
            return ok.get();
        });
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The three phases in order, on one cluster: they build on one another (the acknowledged
     * writes of each are checked again after the next), so they are one test, not three ordered ones.
     */
    @Test
    void nodeKillBrokerKillAndFullOutage() throws Exception {
        concurrentWritersOnEveryNodeAndANodeKilledMidway();
        aBrokerKilledUnderLoadStopsNothing();
        withEveryBrokerDownWritesFailFastReadsGoOnAndWritesResumeAfterwards();
    }

    void concurrentWritersOnEveryNodeAndANodeKilledMidway() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(17);
        try {
            AtomicBoolean stop = new AtomicBoolean();
            long started = System.nanoTime();
            Future<Integer> load = writers(this::nodes, "drill-a", 16, stop, REGISTRATIONS, pool);
            for (int kill = 1; kill <= NODE_KILLS; kill++) {
                long killAt = Math.max(1_000, (long) REGISTRATIONS * kill / (NODE_KILLS + 1) - REGISTRATIONS / 5);
                Nodes.await(() -> acked.size() >= killAt || load.isDone(), Duration.ofMinutes(30),
                        () -> killAt + " acknowledged writes before the kill, got " + acked.size());
                if (load.isDone()) {
                    load.get(); // the writers failed: say why
                }
                node3.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // kill -9 under load
                long killedAt = System.nanoTime();
                int acksAtKill = acked.size();
                node3 = launchNode3();
                CrashRecoveryIT.awaitReady(new Http(node3Port));
                System.out.printf("drill: node killed at %d acks, back and ready in %.1f s%n", acksAtKill,
                        (System.nanoTime() - killedAt) / 1e9);
            }
            int ok = load.get(60, TimeUnit.MINUTES);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("drill: %d registrations acknowledged by three nodes in %.1f s (%.0f/s, %d node kills)%n",
                    ok, seconds, ok / seconds, NODE_KILLS);
            assertEquals(REGISTRATIONS, ok, "every registration acknowledged in the end, retries on other nodes included");
        } finally {
            pool.shutdownNow();
        }
        assertNoDuplicatesNothingLostIdentical();
    }

    void aBrokerKilledUnderLoadStopsNothing() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(9);
        try {
            AtomicBoolean stop = new AtomicBoolean();
            int before = acked.size();
            Future<Integer> load = writers(this::nodes, "drill-b", 8, stop, BROKER_PHASE, pool);
            Nodes.await(() -> acked.size() >= before + 800 || load.isDone(), Duration.ofMinutes(10),
                    () -> "800 acknowledged writes before the broker kill, got " + (acked.size() - before));
            if (load.isDone()) {
                load.get();
            }
            brokers[2].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            long killed = System.nanoTime();
            int atKill = acked.size();
            // If the dead broker led the journal partition, writes wait for the controller to notice
            // (broker.session.timeout.ms, 9 s by default) and elect another leader from the ISR.
            while (acked.size() < atKill + 100 && System.nanoTime() - killed < 45_000_000_000L) {
                Thread.sleep(50);
            }
            double stall = (System.nanoTime() - killed) / 1e9;
            assertTrue(acked.size() >= atKill + 100, "writes continue with one broker of three down");
            System.out.printf("drill: 100 more writes %.1f s after a broker was killed%n", stall);
            brokers[2] = startBroker(2);
            int ok = load.get(30, TimeUnit.MINUTES);
            System.out.printf("drill: %d registrations acknowledged across the broker kill%n", ok);
            assertEquals(BROKER_PHASE, ok, "every registration acknowledged across the broker kill");
        } finally {
            pool.shutdownNow();
        }
        assertNoDuplicatesNothingLostIdentical();
    }

    void withEveryBrokerDownWritesFailFastReadsGoOnAndWritesResumeAfterwards() throws Exception {
        Http h = nodes().get(0);
        String someSubject = acked.keySet().iterator().next();
        for (Process b : brokers) {
            b.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        long t0 = System.nanoTime();
        Http.Response refused = h.post("/subjects/drill-down/versions", schemaBody(record("Down", NAME)));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(50002, refused.errorCode(), refused.body());
        assertTrue(seconds < 10, "a write fails within the write timeout, not later: " + seconds + " s");
        assertEquals(200, h.get("/subjects/" + someSubject + "/versions/1").status(), "reads go on from the view");
        long deadline = System.currentTimeMillis() + 30_000;
        String ready = h.get("/health/ready").body();
        while (!ready.contains("DEGRADED") && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            ready = h.get("/health/ready").body();
        }
        assertTrue(ready.contains("\"journal\":\"unreachable\""), ready);

        for (int b = 0; b < 3; b++) {
            brokers[b] = startBroker(b);
        }
        deadline = System.currentTimeMillis() + 120_000;
        Http.Response again;
        do {
            Thread.sleep(1_000);
            again = h.post("/subjects/drill-after-outage/versions", schemaBody(record("AfterOutage", NAME)));
        } while (again.status() != 200 && System.currentTimeMillis() < deadline);
        assertEquals(200, again.status(), "writes resume without restarting the node: " + again.body());
        acked.put("drill-after-outage", again.json().get("id").asLong());
        assertNoDuplicatesNothingLostIdentical();
    }

    void assertNoDuplicatesNothingLostIdentical() throws Exception {
        long checkStarted = System.nanoTime();
        Set<Long> ids = new HashSet<>(acked.values());
        assertEquals(acked.size(), ids.size(), "duplicate ids among " + acked.size() + " distinct schemas");
        String nodesList = "http://127.0.0.1:" + node1.httpPort() + ",http://127.0.0.1:" + node2.httpPort()
                + ",http://127.0.0.1:" + node3Port;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = VerifyCommand.run(new String[] {"--nodes", nodesList, "--timeout-s", "120", "--bootstrap-servers",
            bootstrap(), "--journal-topic", TOPIC}, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> checks = new ArrayList<>();
            List<Map.Entry<String, Long>> entries = new ArrayList<>(acked.entrySet());
            for (Http n : nodes()) {
                for (int part = 0; part < 8; part++) {
                    int p = part;
                    checks.add(pool.submit(() -> {
                        for (int i = p; i < entries.size(); i += 8) {
                            Map.Entry<String, Long> e = entries.get(i);
                            Http.Response r = n.get("/subjects/" + e.getKey() + "/versions/1");
                            assertEquals(200, r.status(), "lost: " + e.getKey());
                            assertEquals(e.getValue().longValue(), r.json().get("id").asLong(), e.getKey());
                        }
                    }));
                }
            }
            for (Future<?> f : checks) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("drill: %d acknowledged registrations, %d distinct ids (0 duplicates), each read back on 3 "
                + "nodes (0 lost); verify IDENTICAL incl. offline rebuild; checked in %.1f s%n", acked.size(), ids.size(),
                (System.nanoTime() - checkStarted) / 1e9);
        System.out.println("drill: " + out.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith("IDENTICAL")).findFirst().orElse("?"));
    }

    static void awaitLog(Path log, String text, int seconds) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("'" + text + "' not in " + log);
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePortUnchecked() {
        try {
            return CrashRecoveryIT.freePort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
