package io.quire.node.view.apply;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Where the applier thread spends its time, phase by phase, in nanoseconds since the node
 * started: decoding records, the applier's own work, the applier's reads of the view, writing
 * to the store, telling listeners, and everything between two records (Kafka Streams and its
 * consumer, and waiting for the journal when there is nothing to apply). Written by the applier
 * thread only; read by metrics and the catch-up log line.
 */
public final class ApplyTimings {

    /** The phases, in the order a record goes through them. */
    public enum Phase { DECODE, APPLY, VIEW_READS, STORE_WRITES, LISTENERS, BETWEEN_RECORDS }

    private final AtomicLongArray nanos =
            new AtomicLongArray(Phase.values().length);
    private volatile long records;
    private volatile long reads;
    private volatile long scans;
    private long lastEnd;

    void add(Phase phase, long elapsed) {
        nanos.lazySet(phase.ordinal(), nanos.get(phase.ordinal()) + elapsed); // one writer
    }

    /** Decoding done on another thread than the applier's (the catch-up's fetcher; one such thread). */
    void addDecodedElsewhere(long elapsed) {
        nanos.getAndAdd(Phase.DECODE.ordinal(), elapsed);
    }

    void countRead() {
        reads++;
    }

    void countScan() {
        scans++;
    }

    /** Marks the start of a record: the time since the previous one ended was spent outside. */
    void recordStarted(long now) {
        if (lastEnd != 0) {
            add(Phase.BETWEEN_RECORDS, now - lastEnd);
        }
    }

    void recordEnded(long now) {
        lastEnd = now;
        records++;
    }

    /** Records that went through every phase (skipped replays not counted). */
    public long records() {
        return records;
    }

    /** Seconds spent in {@code phase} (the applier's own work counted without its view reads). */
    public double seconds(Phase phase) {
        return nanos.get(phase.ordinal()) / 1e9;
    }

    /** Nanoseconds of view reads so far: the processor subtracts those made while the applier ran. */
    long viewReadNanos() {
        return nanos.get(Phase.VIEW_READS.ordinal());
    }

    /** Mean microseconds per record of each phase, for the log. */
    public Map<String, String> perRecord() {
        Map<String, String> out = new LinkedHashMap<>();
        long n = Math.max(1, records);
        for (Phase p : Phase.values()) {
            long v = nanos.get(p.ordinal());
            out.put(p.name().toLowerCase(Locale.ROOT), String.format(Locale.ROOT, "%.1f µs",
                    v / 1000.0 / n));
        }
        out.put("point reads", String.format(Locale.ROOT, "%.2f", (double) reads / n));
        out.put("scans", String.format(Locale.ROOT, "%.2f", (double) scans / n));
        return out;
    }
}
