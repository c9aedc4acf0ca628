package io.quire.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * A closed-model load generator: N virtual users, each starting its next request as soon as the
 * previous one answered; the warm-up is run but left out of the figures. Talks to Quire only
 * over HTTP.
 *
 * <pre>
 * java -jar bench/target/quire-bench.jar --url http://127.0.0.1:8081 --scenario reads --users 50 \
 *      --duration 30 --warmup 10 --preload 1000
 * java -jar bench/target/quire-bench.jar --url http://127.0.0.1:8081 --scenario writes --users 20 \
 *      --duration 30 --warmup 10
 * </pre>
 */
public final class LoadGenerator {

    record Options(String url, String scenario, int users, int durationS, int warmupS, int preload, String runId) {
        static Options parse(String[] args) {
            Map<String, String> m = new TreeMap<>();
            for (int i = 0; i + 1 < args.length; i += 2) {
                if (!args[i].startsWith("--")) {
                    throw new IllegalArgumentException("expected --flag value, got " + args[i]);
                }
                m.put(args[i].substring(2), args[i + 1]);
            }
            return new Options(m.getOrDefault("url", "http://127.0.0.1:8081"), m.getOrDefault("scenario", "reads"),
                    Integer.parseInt(m.getOrDefault("users", "50")), Integer.parseInt(m.getOrDefault("duration", "30")),
                    Integer.parseInt(m.getOrDefault("warmup", "10")), Integer.parseInt(m.getOrDefault("preload", "1000")),
                    m.getOrDefault("run-id", Long.toString(System.currentTimeMillis(), 36)));
        }
    }

    private final Options o;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Recorder recorder = new Recorder(3);
    private final LongAdder ok = new LongAdder();
    private final Map<Integer, LongAdder> errors = new ConcurrentHashMap<>();
    private volatile boolean measuring;
    private volatile boolean running = true;
    private final AtomicLong sequence = new AtomicLong();
    private long[] ids = new long[0];

    LoadGenerator(Options o) {
        this.o = o;
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        System.out.println(new LoadGenerator(o).run().toJson());
    }

    Result run() throws Exception {
        if (o.scenario().equals("reads")) {
            ids = preload(o.preload());
        }
        List<Thread> users = new ArrayList<>();
        for (int u = 0; u < o.users(); u++) {
            int user = u;
            Thread t = new Thread(() -> loop(user), "vu-" + u);
            t.setDaemon(true);
            t.start();
            users.add(t);
        }
        Thread.sleep(o.warmupS() * 1000L);
        recorder.getIntervalHistogram();
        ok.reset();
        errors.clear();
        measuring = true;
        long start = System.nanoTime();
        Thread.sleep(o.durationS() * 1000L);
        measuring = false;
        double seconds = (System.nanoTime() - start) / 1e9;
        var h = recorder.getIntervalHistogram();
        running = false;
        for (Thread t : users) {
            t.join(10_000);
        }
        Map<Integer, Long> errs = new TreeMap<>();
        errors.forEach((k, v) -> errs.put(k, v.sum()));
        return new Result(o.scenario(), o.users(), seconds, ok.sum(), errs, h.getValueAtPercentile(50),
                h.getValueAtPercentile(90), h.getValueAtPercentile(95), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getMaxValue());
    }

    private void loop(int user) {
        while (running) {
            HttpRequest req = next(user);
            long t0 = System.nanoTime();
            int status;
            try {
                status = client.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                return;
            }
            long micros = (System.nanoTime() - t0) / 1000;
            if (!measuring) {
                continue;
            }
            recorder.recordValue(micros);
            if (status == 200) {
                ok.increment();
            } else {
                errors.computeIfAbsent(status, k -> new LongAdder()).increment();
            }
        }
    }

    private HttpRequest next(int user) {
        if (o.scenario().equals("reads")) {
            long id = ids[ThreadLocalRandom.current().nextInt(ids.length)];
            return HttpRequest.newBuilder(URI.create(o.url() + "/schemas/ids/" + id)).GET().build();
        }
        long n = sequence.incrementAndGet();
        String subject = "bench-" + o.runId() + "-" + user + "-" + n;
        return register(subject, n);
    }

    private HttpRequest register(String subject, long n) {
        String schema = "{\"type\":\"record\",\"name\":\"Bench" + o.runId().replaceAll("[^A-Za-z0-9]", "") + "_" + n
                + "\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"payload\",\"type\":\"string\"}]}";
        String body = "{\"schema\":" + quote(schema) + "}";
        return HttpRequest.newBuilder(URI.create(o.url() + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private long[] preload(int count) throws Exception {
        long[] out = new long[count];
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            HttpResponse<String> r = client.send(register("preload-" + o.runId() + "-" + i, -i - 1),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("preload failed: " + r.statusCode() + " " + r.body());
            }
            String body = r.body();
            out[i] = Long.parseLong(body.replaceAll("[^0-9]", ""));
        }
        System.err.printf("preloaded %d schemas in %.1f s%n", count, (System.nanoTime() - t0) / 1e9);
        return out;
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** What one run measured; latencies in microseconds. */
    record Result(String scenario, int users, double seconds, long ok, Map<Integer, Long> errors, long p50, long p90,
                  long p95, long p99, long p999, long max) {
        double throughput() {
            return ok / seconds;
        }

        String toJson() {
            return String.format(java.util.Locale.ROOT,
                    "{\"scenario\":\"%s\",\"users\":%d,\"seconds\":%.1f,\"ok\":%d,\"perSecond\":%.0f,\"errors\":%s,"
                            + "\"latencyMicros\":{\"p50\":%d,\"p90\":%d,\"p95\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d}}",
                    scenario, users, seconds, ok, throughput(), errors.toString().replace("=", ":").replace("{", "{\"")
                            .replace(", ", ", \"").replace(":", "\":").replace("{\"}", "{}"),
                    p50, p90, p95, p99, p999, max);
        }
    }
}
