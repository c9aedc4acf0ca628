package io.quire.node.view.snapshot;

import java.util.Locale;

/** One line of progress for long work (catch-up, rebuild, snapshot fetch): how far, how fast, how long still. */
public final class ProgressLine {

    private ProgressLine() {
    }

    /**
     * {@code what: done / total unit (percent), rate unit/s, ETA seconds}; without a total, the
     * count and the rate only.
     */
    public static String of(String what, long done, long total, long nanos, String unit) {
        double seconds = nanos / 1e9;
        double rate = done / Math.max(seconds, 1e-9);
        if (total <= 0) {
            return String.format(Locale.ROOT, "%s: %,d %s, %,.0f %s/s", what, done, unit, rate, unit);
        }
        double eta = Math.max(0, total - done) / Math.max(rate, 1e-9);
        return String.format(Locale.ROOT, "%s: %,d / %,d %s (%.0f %%), %,.0f %s/s, ETA %.0f s", what, done, total,
                unit, 100.0 * done / total, rate, unit, eta);
    }
}
