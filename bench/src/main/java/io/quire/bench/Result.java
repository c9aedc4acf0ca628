package io.quire.bench;

import java.util.Map;

/**
 * What one measured run gave: throughput, latency percentiles (microseconds), errors by status,
 * and the per-second series of successful requests. Warm-up is never included.
 */
public record Result(String target, String scenario, int users, double seconds, long ok, Map<String, Long> errors,
                     long p50, long p90, long p95, long p99, long p999, long max, long[] perSecond,
                     Map<String, Object> extra) {

    public double throughput() {
        return ok / seconds;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
