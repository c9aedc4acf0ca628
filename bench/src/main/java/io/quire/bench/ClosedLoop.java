package io.quire.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The closed model of the capacity guide: N virtual users, each starting its next request the
 * moment the previous one answered; a warm-up that is run but not counted; then a measured
 * window. Non-blocking (Vert.x), so one generator thread drives hundreds of users.
 */
public final class ClosedLoop {

    /** One request (or a short chain of them) of one user; completes with the HTTP status. */
    @FunctionalInterface
    public interface Operation {
        Future<Integer> run(int user);
    }

    private ClosedLoop() {
    }

    public static Result run(Vertx vertx, String target, String scenario, int users, Duration warmup,
                             Duration measure, Operation op) throws InterruptedException {
        Recorder recorder = new Recorder(3);
        LongAdder ok = new LongAdder();
        Map<Integer, LongAdder> errors = new ConcurrentHashMap<>();
        int seconds = (int) Math.max(1, measure.toSeconds());
        AtomicLongArray series = new AtomicLongArray(seconds + 1);
        long[] window = new long[2]; // measured window start/end, nanos; 0 while warming up
        CountDownLatch done = new CountDownLatch(users);
        long stopAt = System.nanoTime() + warmup.toNanos() + measure.toNanos();
        for (int u = 0; u < users; u++) {
            int user = u;
            vertx.runOnContext(v -> next(vertx, op, user, recorder, ok, errors, series, window, stopAt, done));
        }
        Thread.sleep(warmup.toMillis());
        recorder.getIntervalHistogram();
        window[0] = System.nanoTime();
        Thread.sleep(measure.toMillis());
        window[1] = System.nanoTime();
        Histogram h = recorder.getIntervalHistogram();
        long start = window[0];
        double elapsed = (window[1] - start) / 1e9;
        done.await(60, TimeUnit.SECONDS);
        Map<String, Long> errs = new TreeMap<>();
        errors.forEach((k, v) -> errs.put(Integer.toString(k), v.sum()));
        long[] perSecond = new long[seconds];
        for (int i = 0; i < seconds; i++) {
            perSecond[i] = series.get(i);
        }
        return new Result(target, scenario, users, elapsed, ok.sum(), errs, h.getValueAtPercentile(50),
                h.getValueAtPercentile(90), h.getValueAtPercentile(95), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getMaxValue(), perSecond, new HashMap<>());
    }

    private static void next(Vertx vertx, Operation op, int user, Recorder recorder, LongAdder ok,
                             Map<Integer, LongAdder> errors, AtomicLongArray series, long[] window, long stopAt,
                             CountDownLatch done) {
        long t0 = System.nanoTime();
        if (t0 >= stopAt) {
            done.countDown();
            return;
        }
        Future<Integer> f;
        try {
            f = op.run(user);
        } catch (RuntimeException e) {
            f = Future.failedFuture(e);
        }
        f.onComplete(ar -> {
            long now = System.nanoTime();
            long start = window[0];
            boolean measured = start != 0 && t0 >= start && (window[1] == 0 || now <= window[1]);
            if (measured) {
                recorder.recordValue(Math.max(1, (now - t0) / 1000));
                int status = ar.succeeded() ? ar.result() : -1;
                if (status >= 200 && status < 300) {
                    ok.increment();
                    int second = (int) ((now - start) / 1_000_000_000L);
                    if (second < series.length()) {
                        series.incrementAndGet(second);
                    }
                } else {
                    errors.computeIfAbsent(status, k -> new LongAdder()).increment();
                }
            }
            if (ar.failed()) {
                // A failure may complete before any I/O, on this very stack: hop, so the chain cannot recurse.
                vertx.runOnContext(v -> next(vertx, op, user, recorder, ok, errors, series, window, stopAt, done));
            } else {
                next(vertx, op, user, recorder, ok, errors, series, window, stopAt, done);
            }
        });
    }
}
