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
import java.util.concurrent.atomic.AtomicLong;
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
        return run(vertx, target, scenario, users, warmup, Settle.NONE, measure, op);
    }

    /**
     * What decides, after the fixed warm-up, whether the server has settled: each call watches it
     * for a while (say 10 s, the load still running) and answers whether it is steady;
     * {@link #limit()} bounds the extra warm-up. The measured window starts at the first "yes" or
     * at the limit, whichever comes first.
     */
    public interface Settle {
        Settle NONE = new Settle() {
            @Override
            public boolean watch() {
                return true;
            }

            @Override
            public Duration limit() {
                return Duration.ZERO;
            }
        };

        boolean watch() throws InterruptedException;

        Duration limit();

        /** Called as the measured window starts. */
        default void measuring() {
        }
    }

    /**
     * As {@link #run(Vertx, String, String, int, Duration, Duration, Operation)}, the warm-up
     * going on past {@code warmup} until {@code settle} says steady (or its limit). The result's
     * {@code warmupSeconds} says how long it ran.
     */
    public static Result run(Vertx vertx, String target, String scenario, int users, Duration warmup, Settle settle,
                             Duration measure, Operation op) throws InterruptedException {
        Recorder recorder = new Recorder(3);
        LongAdder ok = new LongAdder();
        Map<Integer, LongAdder> errors = new ConcurrentHashMap<>();
        int seconds = (int) Math.max(1, measure.toSeconds());
        AtomicLongArray series = new AtomicLongArray(seconds + 1);
        long[] window = new long[2]; // measured window start/end, nanos; 0 while warming up
        CountDownLatch done = new CountDownLatch(users);
        long began = System.nanoTime();
        // Until the measured window is known, users go on (the warm-up may be extended).
        AtomicLong stopAt = new AtomicLong(Long.MAX_VALUE);
        for (int u = 0; u < users; u++) {
            int user = u;
            vertx.runOnContext(v -> next(vertx, op, user, recorder, ok, errors, series, window, stopAt, done));
        }
        Thread.sleep(warmup.toMillis());
        long settleUntil = System.nanoTime() + settle.limit().toNanos();
        while (System.nanoTime() < settleUntil && !settle.watch()) {
            // not steady yet: keep warming up
        }
        settle.measuring();
        recorder.getIntervalHistogram();
        stopAt.set(System.nanoTime() + measure.toNanos());
        window[0] = System.nanoTime();
        double warmedSeconds = (window[0] - began) / 1e9;
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
        Map<String, Object> extra = new HashMap<>();
        extra.put("warmupSeconds", Math.round(warmedSeconds * 10) / 10.0);
        return new Result(target, scenario, users, elapsed, ok.sum(), errs, h.getValueAtPercentile(50),
                h.getValueAtPercentile(90), h.getValueAtPercentile(95), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getMaxValue(), perSecond, extra);
    }

    private static void next(Vertx vertx, Operation op, int user, Recorder recorder, LongAdder ok,
                             Map<Integer, LongAdder> errors, AtomicLongArray series, long[] window, AtomicLong stopAt,
                             CountDownLatch done) {
        long t0 = System.nanoTime();
        if (t0 >= stopAt.get()) {
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
