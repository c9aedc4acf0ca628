package io.quire.node.ops;

import java.io.PrintStream;
import java.util.Locale;

/** A one-line progress display for long operator commands: done/total, rate, percent, ETA. */
final class Progress {

    private final PrintStream out;
    private final String what;
    private final long started = System.nanoTime();
    private long lastPrint;

    Progress(PrintStream out, String what) {
        this.out = out;
        this.what = what;
    }

    /** Prints at most once a second, or always when {@code force}. */
    void update(long done, long total, boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastPrint < 1_000_000_000L) {
            return;
        }
        lastPrint = now;
        double s = Math.max(1e-3, (now - started) / 1e9);
        double rate = done / s;
        String eta = total > 0 && rate > 0 ? String.format(Locale.ROOT, "%.0f s", (total - done) / rate) : "?";
        out.printf(Locale.ROOT, "%s: %,d / %,d records (%.0f %%), %,.0f records/s, ETA %s%n", what, done, total,
                total > 0 ? 100.0 * done / total : 100.0, rate, eta);
    }

    double seconds() {
        return (System.nanoTime() - started) / 1e9;
    }
}
