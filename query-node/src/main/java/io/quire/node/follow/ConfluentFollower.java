package io.quire.node.follow;

import io.quire.journal.command.Envelope;
import io.quire.journal.command.SetFollow;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.FollowState;
import io.quire.journal.view.RegistryView;
import io.quire.node.service.Registry;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tails a running Confluent Schema Registry's {@code _schemas} topic and copies every record into
 * the journal, in the source's order, with the source's ids and versions: each command carries the
 * record's offset, and the applier takes each offset once (so a follower that restarts, or a second
 * one, copies nothing twice). While it follows, the registry refuses every other write. It starts
 * where the view says it stopped; it stops when the view says the registry cut over (from any node),
 * and on a record it cannot apply unless told to skip such records.
 */
public final class ConfluentFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfluentFollower.class);
    static final String PRINCIPAL = "confluent-follower";

    /** Where the follower is. */
    public enum State { STARTING, FOLLOWING, STOPPED, CUT_OVER }

    /** What {@code GET /admin/follow} shows of this node's follower. */
    public record Status(String source, State state, long nextOffset, long sourceEnd, long lagRecords,
                         double lagSeconds, long recordsCopied, long recordsSkipped, String lastError) {
    }

    private final String source;
    private final String topic;
    private final Properties consumerProperties;
    private final boolean skipUnreadable;
    private final ViewAccess access;
    private final JournalPort journal;
    private final Registry registry;
    private final SourceStampingJournal stamping;
    private final BooleanSupplier ready;
    private final long writeTimeoutMs;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile State state = State.STARTING;
    private volatile String lastError;
    private volatile long nextOffset;
    private volatile long sourceEnd = -1;
    private volatile double lagSeconds;
    private final AtomicLong copied = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();

    public ConfluentFollower(String bootstrapServers, String topic, Map<String, String> sourceSettings,
                             boolean skipUnreadable, ViewAccess access, JournalPort journal,
                             java.util.function.Function<JournalPort, Registry> registryOver, BooleanSupplier ready,
                             long writeTimeoutMs, Clock clock) {
        this.source = sourceName(bootstrapServers, topic);
        this.topic = topic;
        this.skipUnreadable = skipUnreadable;
        this.access = access;
        this.journal = journal;
        this.stamping = new SourceStampingJournal(journal);
        this.registry = registryOver.apply(stamping);
        this.ready = ready;
        this.writeTimeoutMs = writeTimeoutMs;
        this.clock = clock;
        Properties p = new Properties();
        p.putAll(sourceSettings);
        p.put("bootstrap.servers", bootstrapServers);
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        p.put("isolation.level", "read_committed");
        p.putIfAbsent("client.id", "quire-confluent-follower");
        this.consumerProperties = p;
        this.thread = new Thread(this::run, "quire-confluent-follower");
        this.thread.setDaemon(true);
    }

    /** The name a source goes by in the journal: the same on every node configured alike. */
    public static String sourceName(String bootstrapServers, String topic) {
        return "confluent:" + bootstrapServers + "/" + topic;
    }

    public String source() {
        return source;
    }

    public ConfluentFollower start() {
        thread.start();
        return this;
    }

    public Status status() {
        long end = sourceEnd;
        long lag = end < 0 ? -1 : Math.max(0, end - nextOffset);
        return new Status(source, state, nextOffset, end, lag, lag == 0 ? 0 : lagSeconds, copied.get(), skipped.get(),
                lastError);
    }

    private void run() {
        try {
            while (running && !ready.getAsBoolean()) {
                Thread.sleep(200);
            }
            if (!running || !begin()) {
                return;
            }
            follow();
        } catch (InterruptedException | org.apache.kafka.common.errors.WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            stop("the follower failed: " + e);
            LOG.error("following {} failed", source, e);
        }
    }

    /** Journals that this registry follows the source, unless the view says so already. */
    private boolean begin() throws InterruptedException {
        Optional<FollowState> now = access.view().follow();
        if (now.isPresent() && now.get().source().equals(source) && !now.get().following()) {
            state = State.CUT_OVER;
            LOG.info("this registry cut over from {} already: not following it", source);
            return false;
        }
        if (now.isEmpty() || !now.get().following()) {
            Applied a = await(journal.submit(new SetFollow(source, true, -1), PRINCIPAL));
            if (a == null || a.outcome() instanceof Rejected r && !r.message().contains(source)) {
                stop("cannot start following: " + (a == null ? "the journal did not answer" : ((Rejected) a.outcome()).message()));
                return false;
            }
        } else if (!now.get().source().equals(source)) {
            stop("this registry follows " + now.get().source() + ", not " + source);
            return false;
        }
        state = State.FOLLOWING;
        return true;
    }

    private void follow() throws InterruptedException {
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties,
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            this.consumer = consumer;
            if (!running) {
                return;
            }
            consumer.assign(List.of(tp));
            FollowState at = access.view().follow().orElseThrow();
            // the last record dealt with is read again: a record of two steps may have stopped half-way
            nextOffset = Math.max(0, at.lastOffset());
            consumer.seek(tp, nextOffset);
            LOG.info("following {} from offset {}", source, nextOffset);
            long endCheckedAt = 0;
            while (running) {
                FollowState f = access.view().follow().orElse(null);
                if (f == null || !f.following()) {
                    state = State.CUT_OVER;
                    LOG.info("stopped following {}: the registry cut over at source offset {}", source,
                            f == null ? -1 : f.lastOffset());
                    return;
                }
                long now = System.nanoTime();
                if (now - endCheckedAt > TimeUnit.MILLISECONDS.toNanos(500)) {
                    sourceEnd = consumer.endOffsets(List.of(tp), Duration.ofSeconds(10)).getOrDefault(tp, -1L);
                    endCheckedAt = now;
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (!running || !copy(r)) {
                        return;
                    }
                    nextOffset = r.offset() + 1;
                }
                if (records.isEmpty()) {
                    nextOffset = Math.max(nextOffset, consumer.position(tp));
                }
            }
        }
    }

    /** Copies one record; false when the follower stops on it. */
    private boolean copy(ConsumerRecord<byte[], byte[]> r) throws InterruptedException {
        List<SourceRecords.Step> steps;
        try {
            steps = SourceRecords.steps(access.view(), r.key(), r.value());
        } catch (SourceRecords.Unreadable e) {
            return refused(r.offset(), e.getMessage());
        }
        boolean applied = false;
        for (int part = 0; part < steps.size(); part++) {
            Envelope.Source at = new Envelope.Source(source, r.offset(), part);
            String failure = apply(steps.get(part), at);
            if (failure != null && !alreadyDealtWith(at)) {
                return refused(r.offset(), failure);
            }
            applied |= failure == null;
        }
        if (applied) {
            copied.incrementAndGet();
        }
        lagSeconds = Math.max(0, (clock.millis() - r.timestamp()) / 1000.0);
        return true;
    }

    /** Applies one step; null when the journal applied it, else why not. */
    private String apply(SourceRecords.Step step, Envelope.Source at) throws InterruptedException {
        CompletableFuture<?> done;
        if (step instanceof SourceRecords.Import i) {
            stamping.current(at);
            done = registry.registrations().importCopied(i.subject(), i.request(), PRINCIPAL);
        } else {
            done = journal.submit(((SourceRecords.Write) step).command(), PRINCIPAL, at)
                    .thenApply(a -> {
                        if (a.outcome() instanceof Rejected rej) {
                            throw new IllegalStateException(rej.error().code + " " + rej.message());
                        }
                        return a;
                    });
        }
        try {
            done.get(writeTimeoutMs * 2, TimeUnit.MILLISECONDS);
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            return cause == null ? String.valueOf(e) : cause.getMessage();
        } catch (java.util.concurrent.TimeoutException e) {
            return "the journal did not apply it within " + (writeTimeoutMs * 2) + " ms";
        }
    }

    /** Whether the journal holds this step already (another follower, or this one before a restart). */
    private boolean alreadyDealtWith(Envelope.Source at) {
        return access.view().follow().map(f -> f.source().equals(source)
                && !at.isAfter(f.lastOffset(), f.lastPart())).orElse(false);
    }

    /** A record that cannot be applied: skipped (and marked in the journal) when allowed, else the end. */
    private boolean refused(long offset, String why) throws InterruptedException {
        if (!skipUnreadable) {
            stop("source record " + offset + " of " + source + " cannot be applied: " + why
                    + ". Fix it at the source, or restart with --follow-skip-unreadable true to skip it");
            LOG.error(lastError);
            return false;
        }
        Applied a = await(journal.submit(new SetFollow(source, true, offset), PRINCIPAL));
        if (a == null || a.outcome() instanceof Rejected) {
            stop("could not mark source record " + offset + " as skipped");
            return false;
        }
        skipped.incrementAndGet();
        LOG.warn("skipped source record {} of {}: {}", offset, source, why);
        return true;
    }

    private Applied await(CompletableFuture<Applied> f) throws InterruptedException {
        try {
            return f.get(writeTimeoutMs * 2, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            lastError = String.valueOf(e.getCause() == null ? e : e.getCause());
            return null;
        }
    }

    private void stop(String why) {
        lastError = why;
        state = State.STOPPED;
    }

    @Override
    public void close() {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The node's journal with the current source position put on every command the services send. */
    static final class SourceStampingJournal implements JournalPort {
        private final JournalPort inner;
        private volatile Envelope.Source current;

        SourceStampingJournal(JournalPort inner) {
            this.inner = inner;
        }

        void current(Envelope.Source s) {
            current = s;
        }

        @Override
        public CompletableFuture<Applied> submit(io.quire.journal.command.Command command, String principal) {
            return inner.submit(command, principal, current);
        }
    }

    RegistryView view() {
        return access.view();
    }
}
