package io.quire.bench.drill;

import io.quire.bench.drill.History.Kind;
import io.quire.bench.drill.History.Op;
import io.quire.bench.drill.History.Outcome;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The partition drill: a workload against the three nodes of {@code bench/partition/cluster.sh}
 * while a seeded schedule of faults runs, every operation recorded, then every link healed and the
 * history checked ({@link Checker}) against what the registry promises. Writes {@code report.md},
 * {@code history.tsv} and {@code timeline.png} into the output folder; exits 1 when an anomaly is
 * found.
 *
 * <pre>
 * java -cp bench/target/quire-bench.jar io.quire.bench.drill.PartitionDrill [--seconds 120] [--seed 1]
 *     [--clients 9] [--hold-ms 10000] [--gap-ms 4000] [--pause-ms 20000] [--out target/drill]
 *     [--cluster bench/partition/cluster.sh]
 * </pre>
 */
public final class PartitionDrill {

    static final String[] NODES = {"http://10.77.0.21:8081", "http://10.77.0.22:8081", "http://10.77.0.23:8081"};
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    /** The one schema every "share" registration sends: one id in every subject. */
    static final String SHARED = "{\"type\":\"record\",\"name\":\"Shared\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    final History history = new History();
    final long t0 = System.currentTimeMillis();

    long now() {
        return System.currentTimeMillis() - t0;
    }

    /**
     * An answer: HTTP status and body, or status -1 when there was none (a timeout, a connection
     * broken after the request was sent), or 0 when the connection was refused (the request never
     * left: a definite failure, not an unknown outcome).
     */
    record Answer(int status, String body, long offset, String error) {
    }

    Answer send(int node, String method, String path, String body, Long minOffset) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(NODES[node] + path)).timeout(Duration.ofSeconds(5))
                .header("Content-Type", CONTENT_TYPE)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (minOffset != null) {
            b.header("X-Quire-Min-Offset", Long.toString(minOffset));
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            long offset = r.headers().firstValue("X-Quire-Offset").map(Long::parseLong).orElse(-1L);
            return new Answer(r.statusCode(), r.body(), offset, null);
        } catch (java.net.ConnectException e) {
            return new Answer(0, null, -1, e.toString());
        } catch (IOException e) {
            return new Answer(-1, null, -1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, null, -1, "interrupted");
        }
    }

    static String body(String schema) {
        return "{\"schema\":" + Checker.quote(schema) + "}";
    }

    static String record(String name, String extraField) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}"
                + (extraField == null ? "" : ",{\"name\":\"" + extraField + "\",\"type\":\"string\",\"default\":\"\"}")
                + "]}";
    }

    /**
     * One client: registrations of new, evolving and shared subjects; its own subjects registered,
     * soft-deleted, deleted for good and registered again; reads of its own writes, by id and by
     * version, half with their token and half without (recorded with offset -1). Without a token a
     * node that is behind may answer 404, which is no anomaly; another schema would be.
     */
    void client(int c, long seed, AtomicBoolean running) {
        Random random = new Random(seed * 1_000 + c);
        List<Op> mine = new ArrayList<>();
        int[] cycle = new int[3]; // per cycle subject: 0 register next, 1 soft delete next, 2 delete for good next
        int n = 0;
        while (running.get()) {
            int node = random.nextInt(3);
            int pick = random.nextInt(10);
            n++;
            if (pick < 2 && !mine.isEmpty()) {
                Op w = mine.get(random.nextInt(mine.size()));
                boolean byVersion = w.subject().startsWith("new-") && random.nextBoolean();
                boolean token = random.nextBoolean() && w.offset() >= 0;
                long start = now();
                Answer a = send(node, "GET", byVersion ? "/subjects/" + w.subject() + "/versions/latest"
                        : "/schemas/ids/" + w.id(), null, token ? w.offset() : null);
                boolean right = byVersion ? Checker.longField(a.body(), "id") == w.id()
                        : Checker.sameSchema(Checker.schemaOf(a.body()), w.schema());
                Outcome o = a.status() == 200 ? (right ? Outcome.OK : Outcome.FAIL)
                        : a.status() == 404 && !token ? Outcome.OK // not there yet on a node that is behind
                        : a.status() <= 0 || a.status() >= 500 ? Outcome.UNKNOWN : Outcome.FAIL;
                history.add(new Op(c, Kind.READ, node, w.subject(), w.schema(), start, now(), o, w.id(), 0,
                        token ? w.offset() : -1, a.body(), a.error()));
                continue;
            }
            if (pick == 9) {
                int k = random.nextInt(3);
                String subject = "cycle-c" + c + "-" + k;
                String schema = record("Cycle" + c + "x" + k, null);
                Kind kind = cycle[k] == 0 ? Kind.REGISTER : cycle[k] == 1 ? Kind.DELETE : Kind.PURGE;
                long start = now();
                Answer a = kind == Kind.REGISTER ? send(node, "POST", "/subjects/" + subject + "/versions", body(schema), null)
                        : send(node, "DELETE", "/subjects/" + subject + (kind == Kind.PURGE ? "?permanent=true" : ""),
                        null, null);
                Outcome o = outcome(a);
                long id = o == Outcome.OK && kind == Kind.REGISTER ? Checker.longField(a.body(), "id") : -1;
                history.add(new Op(c, kind, node, subject, schema, start, now(), o, id, 0, a.offset(), a.body(),
                        a.error()));
                if (o == Outcome.OK) {
                    cycle[k] = (cycle[k] + 1) % 3;
                }
                continue;
            }
            String subject;
            String schema;
            if (pick < 6) {
                subject = "new-c" + c + "-" + n;
                schema = record("N" + c + "x" + n, null);
            } else if (pick < 8) {
                subject = "evolve-" + random.nextInt(6);
                schema = record("Evolving", "f" + c + "_" + n);
            } else {
                subject = "share-c" + c + "-" + n;
                schema = SHARED;
            }
            long start = now();
            Answer a = send(node, "POST", "/subjects/" + subject + "/versions", body(schema), null);
            Outcome o = outcome(a);
            long id = o == Outcome.OK ? Checker.longField(a.body(), "id") : -1;
            Op op = new Op(c, Kind.REGISTER, node, subject, schema, start, now(), o, id, 0, a.offset(), a.body(),
                    a.error());
            history.add(op);
            if (o == Outcome.OK) {
                mine.add(op);
            }
        }
    }

    /** A write's outcome: ok; a definite failure (a refusal, or a connection refused); else unknown. */
    static Outcome outcome(Answer a) {
        return a.status() == 200 ? Outcome.OK : a.status() == 0 ? Outcome.FAIL
                : a.status() < 0 || a.status() >= 500 ? Outcome.UNKNOWN : Outcome.FAIL;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            flags.put(args[i], args[i + 1]);
        }
        int seconds = Integer.parseInt(flags.getOrDefault("--seconds", "120"));
        long seed = Long.parseLong(flags.getOrDefault("--seed", "1"));
        int clients = Integer.parseInt(flags.getOrDefault("--clients", "9"));
        long holdMs = Long.parseLong(flags.getOrDefault("--hold-ms", "10000"));
        long gapMs = Long.parseLong(flags.getOrDefault("--gap-ms", "4000"));
        long pauseMs = Long.parseLong(flags.getOrDefault("--pause-ms", "20000"));
        Path out = Path.of(flags.getOrDefault("--out", "target/drill"));
        Path script = Path.of(flags.getOrDefault("--cluster", "bench/partition/cluster.sh")).toAbsolutePath();
        Files.createDirectories(out);
        System.exit(new PartitionDrill().run(seconds, seed, clients, holdMs, gapMs, pauseMs, out, script));
    }

    int run(int seconds, long seed, int clients, long holdMs, long gapMs, long pauseMs, Path out, Path script)
            throws Exception {
        try (JournalLeader leader = new JournalLeader()) {
            return run(seconds, seed, clients, holdMs, gapMs, pauseMs, out, new Faults(script, seed, leader::broker));
        }
    }

    private int run(int seconds, long seed, int clients, long holdMs, long gapMs, long pauseMs, Path out, Faults faults)
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = new Thread(() -> client(client, seed, running), "drill-client-" + c);
            t.start();
            threads.add(t);
        }
        long end = t0 + seconds * 1000L;
        Random schedule = new Random(seed);
        while (System.currentTimeMillis() + gapMs + holdMs < end) {
            Thread.sleep(gapMs);
            Faults.Fault f = faults.next();
            long hold = f.name().contains("paused") ? pauseMs : holdMs + schedule.nextInt((int) Math.max(1, holdMs / 2));
            long start = now();
            System.out.printf("%6.1f s  fault: %s for %.1f s%n", start / 1e3, f.name(), hold / 1e3);
            Faults.run(f.make());
            Thread.sleep(hold);
            Faults.run(f.heal());
            history.fault(new History.Fault(f.name(), start, now()));
        }
        while (System.currentTimeMillis() < end) {
            Thread.sleep(100);
        }
        running.set(false);
        for (Thread t : threads) {
            t.join(10_000);
        }
        Faults.run(faults.healAll());
        System.out.printf("%6.1f s  healed; checking%n", now() / 1e3);
        Checker checker = new Checker(this);
        List<String> anomalies = checker.check(history.ops());
        Report.write(out, history, anomalies, checker, seconds, seed);
        System.out.println(Files.readString(out.resolve("report.md")));
        return anomalies.isEmpty() ? 0 : 1;
    }
}
