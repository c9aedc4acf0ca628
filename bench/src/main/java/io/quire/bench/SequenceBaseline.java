package io.quire.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The SQL registries' id pattern, for comparison: every new schema takes its id by incrementing one
 * locked row ({@code UPDATE sequences SET value = value + 1 … RETURNING}) and inserts the schema in
 * the same transaction, on a real PostgreSQL. Closed model, one connection per writer.
 */
public final class SequenceBaseline {

    private SequenceBaseline() {
    }

    public static void prepare(String jdbcUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sequences (name text PRIMARY KEY, value bigint NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS schemas (id bigint PRIMARY KEY, content text NOT NULL)");
            s.execute("INSERT INTO sequences VALUES ('ids', 0) ON CONFLICT DO NOTHING");
        }
    }

    public static Result run(String jdbcUrl, int writers, Duration warmup, Duration measure) throws Exception {
        Recorder recorder = new Recorder(3);
        LongAdder ok = new LongAdder();
        LongAdder failed = new LongAdder();
        AtomicLong measuringSince = new AtomicLong();
        int seconds = (int) Math.max(1, measure.toSeconds());
        long[] series = new long[seconds];
        long stopAt = System.nanoTime() + warmup.toNanos() + measure.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Thread t = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(jdbcUrl)) {
                    c.setAutoCommit(false);
                    PreparedStatement next = c.prepareStatement(
                            "UPDATE sequences SET value = value + 1 WHERE name = 'ids' RETURNING value");
                    PreparedStatement insert = c.prepareStatement("INSERT INTO schemas VALUES (?, ?)");
                    while (System.nanoTime() < stopAt) {
                        long t0 = System.nanoTime();
                        try (ResultSet rs = next.executeQuery()) {
                            rs.next();
                            insert.setLong(1, rs.getLong(1));
                            insert.setString(2, "{\"type\":\"record\",\"name\":\"S" + rs.getLong(1) + "\",\"fields\":[]}");
                            insert.executeUpdate();
                            c.commit();
                            long now = System.nanoTime();
                            long since = measuringSince.get();
                            if (since != 0 && t0 >= since) {
                                recorder.recordValue(Math.max(1, (now - t0) / 1000));
                                ok.increment();
                                int s = (int) ((now - since) / 1_000_000_000L);
                                if (s < seconds) {
                                    synchronized (series) {
                                        series[s]++;
                                    }
                                }
                            }
                        } catch (SQLException e) {
                            c.rollback();
                            failed.increment();
                        }
                    }
                } catch (SQLException e) {
                    failed.increment();
                }
            });
            t.start();
            threads.add(t);
        }
        Thread.sleep(warmup.toMillis());
        recorder.getIntervalHistogram();
        long start = System.nanoTime();
        measuringSince.set(start);
        Thread.sleep(measure.toMillis());
        double elapsed = (System.nanoTime() - start) / 1e9;
        Histogram h = recorder.getIntervalHistogram();
        long okCount = ok.sum();
        for (Thread t : threads) {
            t.join(60_000);
        }
        Map<String, Long> errors = new TreeMap<>();
        if (failed.sum() > 0) {
            errors.put("sql", failed.sum());
        }
        return new Result("postgresql-sequence-row", "writes", writers, elapsed, okCount, errors,
                h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(95),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(), series.clone(),
                new java.util.HashMap<>());
    }
}
