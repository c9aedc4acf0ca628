package io.quire.node.view.apply;

import io.quire.node.view.store.GroupCommit;
import io.quire.node.view.store.Tuning;
import io.quire.node.view.store.ViewStore;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the journal up to the end it had when the node started, before Kafka Streams starts:
 * the same applier, the same view store and the same group commit as {@link ApplyProcessor}
 * under Streams, but records are fetched and decoded on a thread of their own while the
 * applying thread applies the ones before (Streams' global thread fetches, deserialises and
 * processes one record after the other on one thread). Streams then takes the open store and
 * goes on from the position stored in it ({@link ViewStore#committedOffset}).
 *
 * <p>Crash safety is the view store's: every group is one write batch holding the position
 * after its last record. The catch-up writes its groups without the write-ahead log
 * ({@link ViewStore#unlogged}), so a crash during it leaves the view at the position of the last
 * group RocksDB flushed to a file, and the next start applies the records after it again; the
 * memtables are flushed before Kafka Streams writes anything logged.
 */
public final class CatchUp {

    private static final Logger LOG = LoggerFactory.getLogger(CatchUp.class);
    /** Records decoded ahead of the applier, in batches of up to one poll. */
    private static final int BATCHES_AHEAD = 4;

    /**
     * Level-0 files past which a catch-up compacts again ({@link ViewStore#catchingUp}): a 1 M
     * replay of the bench journal left 15 files of ~46 MiB, so 48 is about three million
     * registrations; each file's index and Bloom filter (~0.25 MiB and, at 10 bits a key, ~0.7
     * MiB) stay pinned in the block cache. Longer catch-ups go on with RocksDB's serving triggers. Below
     * the store's level-0 slowdown trigger ({@code ViewRocks.L0_SLOWDOWN_TRIGGER}), so a catch-up never ends with its writes held up.
     */
    static final int MAX_L0_FILES = 48;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * What the catch-up did, and the view store it applied into: still open, for Kafka Streams to
     * go on with ({@link JournalTopology#build} takes it).
     */
    public record Result(long fromOffset, long toOffset, long records, long nanos, long secondHalfRecords,
                         long secondHalfNanos, ViewStore store) {
        public double recordsPerSecond() {
            return nanos == 0 ? 0 : records * 1e9 / nanos;
        }

        /**
         * The rate over the later half of the records, from the moment half of them were applied
         * until the last was written: a replay's first seconds run while the JIT compiles its code
         * (on two cores, the compiler takes one of them), so this is nearer the rate a longer
         * catch-up keeps.
         */
        public double secondHalfRecordsPerSecond() {
            return secondHalfNanos <= 0 ? 0 : secondHalfRecords * 1e9 / secondHalfNanos;
        }
    }

    private CatchUp() {
    }

    /**
     * Opens the view store {@code name} in {@code stateDir} (Kafka Streams' global state folder of
     * the node), applies the records after its position up to {@code journalEnd - 1} when there
     * are {@code minRecords} or more (starting a consumer of its own costs more than Streams takes
     * for a short tail), and writes what it applied. The store stays open; it is closed if the
     * catch-up fails. Stops early, keeping what it applied, once {@code stopped} says so.
     *
     * @param kafka the node's client settings (bootstrap servers, security)
     */
    public static Result run(Properties kafka, String topic, long journalEnd, long minRecords, File stateDir,
                             String name, GroupCommit group, Tuning tuning,
                             ApplyListener listener, boolean skipCorrupt, AtomicLong skippedCorrupt,
                             ApplyTimings timings, BooleanSupplier stopped) throws Exception {
        ViewStore store = new ViewStore(name, group, tuning);
        // Opened with compactions off, so that none starts before the catch-up pauses them.
        store.openStandalone(stateDir, true);
        try {
            ApplyProcessor processor = new ApplyProcessor(name, listener, skipCorrupt, skippedCorrupt, timings);
            processor.open(store);
            long from = processor.position();
            if (journalEnd - 1 - from < minRecords) {
                store.catchUp().catchingUp(false);
                store.catchUp().memtableFilters();
                return new Result(from, from, 0, 0, 0, 0, store);
            }
            long t0 = System.nanoTime();
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            long writer0 = store.writerCpuNanos();
            AtomicLong fetchCpu = new AtomicLong();
            AtomicLong halfAt = new AtomicLong();
            long half = (journalEnd - 1 - from) / 2; // records applied when the second half starts
            long applied;
            store.catchUp().unlogged(true);
            store.catchUp().deferIndex();
            try {
                applied = apply(kafka, new TopicPartition(topic, 0), from + 1, journalEnd, processor, stopped, fetchCpu,
                        () -> store.catchUp().compactPast(MAX_L0_FILES), half, halfAt);
                store.catchUp().unlogged(false);
                store.flush();
            } finally {
                store.catchUp().catchingUp(false);
            }
            long t1 = System.nanoTime();
            boolean halfway = halfAt.get() != 0;
            Result r = new Result(from, processor.position(), applied, t1 - t0,
                    halfway ? applied - half : 0, halfway ? t1 - halfAt.get() : 0, store);
            LOG.info("caught up offsets {}..{} before Kafka Streams started: {} records in {} ms ({} records/s; "
                    + "the second half at {} records/s); CPU: applying thread {} ms, fetching thread {} ms, view writer {} ms",
                    from + 1, r.toOffset(), applied, r.nanos() / 1_000_000, Math.round(r.recordsPerSecond()),
                    Math.round(r.secondHalfRecordsPerSecond()),
                    (THREADS.getCurrentThreadCpuTime() - cpu0) / 1_000_000, fetchCpu.get() / 1_000_000,
                    (store.writerCpuNanos() - writer0) / 1_000_000);
            return r;
        } catch (Exception | Error e) {
            store.close();
            throw e;
        }
    }

    /** One poll's records, decoded; {@code failure} instead when fetching failed; empty: the end. */
    private record Batch(List<ApplyProcessor.Decoded> records, Throwable failure) {
        static final Batch END = new Batch(List.of(), null);
    }

    private static long apply(Properties kafka, TopicPartition tp, long from, long end, ApplyProcessor processor,
                              BooleanSupplier stopped, AtomicLong fetchCpu, Runnable everyFewBatches,
                              long half, AtomicLong halfAt) throws Exception {
        BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(BATCHES_AHEAD);
        AtomicBoolean stop = new AtomicBoolean();
        Thread fetcher = new Thread(() -> {
            try {
                fetch(kafka, tp, from, end, queue, stop, processor.timings());
            } finally {
                fetchCpu.set(THREADS.getCurrentThreadCpuTime());
            }
        }, "quire-catch-up-fetch");
        fetcher.setDaemon(true);
        fetcher.start();
        long applied = 0;
        long batches = 0;
        try {
            while (true) {
                Batch b = queue.take();
                if (b.failure() != null) {
                    throw new IllegalStateException("reading the journal failed during the catch-up", b.failure());
                }
                if (b.records().isEmpty() || stopped.getAsBoolean()) {
                    return applied; // the end, or the node is stopping: what is applied is kept
                }
                for (ApplyProcessor.Decoded d : b.records()) {
                    processor.applyDecoded(d);
                    if (++applied == half) {
                        halfAt.set(System.nanoTime());
                    }
                }
                if (++batches % 64 == 0) {
                    everyFewBatches.run();
                }
            }
        } finally {
            stop.set(true);
            queue.clear(); // frees a fetcher blocked on a full queue
            fetcher.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private static void fetch(Properties kafka, TopicPartition tp, long from, long end, BlockingQueue<Batch> queue,
                              AtomicBoolean stop, ApplyTimings timings) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("enable.auto.commit", "false");
        p.put("max.poll.records", "2000");
        p.remove("group.id");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, from);
            while (!stop.get() && consumer.position(tp) < end) {
                List<ApplyProcessor.Decoded> decoded = new ArrayList<>();
                List<ConsumerRecord<byte[], byte[]>> polled = consumer.poll(Duration.ofMillis(500)).records(tp);
                long t0 = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    if (r.offset() >= end) {
                        break;
                    }
                    decoded.add(ApplyProcessor.decode(r.offset(), r.value()));
                }
                timings.addDecodedElsewhere(System.nanoTime() - t0);
                if (!decoded.isEmpty()) {
                    put(queue, new Batch(decoded, null), stop);
                }
            }
            put(queue, Batch.END, stop);
        } catch (Throwable t) {
            put(queue, new Batch(List.of(), t), stop);
        }
    }

    private static void put(BlockingQueue<Batch> queue, Batch b, AtomicBoolean stop) {
        try {
            while (!stop.get() && !queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
                // the applier is behind: wait for room
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
