package io.quire.node.follow;

import io.quire.journal.command.Command;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchemas;
import io.quire.journal.command.SetFollow;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.FollowState;
import io.quire.node.confluent.ConfluentLogCodec;
import io.quire.node.confluent.LogRecord;
import io.quire.node.follow.FollowStatus.State;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
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
    static final Principal PRINCIPAL = Principal.of("confluent-follower");

    private final String source;
    private final String topic;
    private final Properties consumerProperties;
    private final boolean skipUnreadable;
    private final ViewAccess access;
    private final JournalPort journal;
    private final Registry registry;
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
                             Function<JournalPort, Registry> registryOver, BooleanSupplier ready,
                             long writeTimeoutMs, Clock clock) {
        this.source = sourceName(bootstrapServers, topic);
        this.topic = topic;
        this.skipUnreadable = skipUnreadable;
        this.access = access;
        this.journal = journal;
        this.registry = registryOver.apply(journal);
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
        this.run = new CopiedRun(journal, PRINCIPAL, source, inFlight, RUN);
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

    public FollowStatus.Follower status() {
        long end = sourceEnd;
        long lag = end < 0 ? -1 : Math.max(0, end - nextOffset);
        return new FollowStatus.Follower(source, state, nextOffset, end, lag, lag == 0 ? 0 : lagSeconds, copied.get(),
                skipped.get(), lastError);
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
        } catch (InterruptedException | WakeupException e) {
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

    /** Steps in flight at most: the follower sends ahead instead of waiting for each. */
    static final int WINDOW = Integer.getInteger("quire.follow.window", 4096); // 1: one step at a time (for comparisons)
    /** Plain new versions sent as one journal record at most (1: a journal record per source record). */
    static final int RUN = Math.min(ImportSchemas.MAX_SCHEMAS, Integer.getInteger("quire.follow.run", 256));

    private final InFlightSteps inFlight = new InFlightSteps();
    private final CopiedRun run;
    /** Source records to send one at a time, up to this offset: those of a run refused as a whole. */
    private long singlesThrough = -1;
    /** The last step sent (or applied, at start): each step is chained right after it. */
    private long tipOffset;
    private int tipPart;

    private void follow() throws InterruptedException {
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties,
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            this.consumer = consumer;
            if (!running) {
                return;
            }
            consumer.assign(List.of(tp));
            resync(consumer, tp);
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
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(inFlight.isEmpty() ? 200 : 0));
                Outcome batch = Outcome.GO_ON;
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    batch = running ? send(r) : Outcome.STOP;
                    if (batch != Outcome.GO_ON) {
                        break;
                    }
                }
                if (batch == Outcome.GO_ON) {
                    run.send();
                }
                if (batch == Outcome.GO_ON && records.isEmpty()) {
                    batch = drain();
                }
                if (batch == Outcome.STOP) {
                    return;
                }
                if (batch == Outcome.RESEND) {
                    resync(consumer, tp);
                }
                if (records.isEmpty() && inFlight.isEmpty()) {
                    nextOffset = Math.max(nextOffset, consumer.position(tp));
                }
            }
        }
    }

    private enum Outcome { GO_ON, RESEND, STOP }

    /** Back to what the view says: the chain's tip and the record to read next (the last one again). */
    private void resync(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp) {
        FollowState at = access.view().follow().orElseThrow();
        run.clear();
        tipOffset = at.lastOffset();
        tipPart = at.lastPart();
        nextOffset = Math.max(0, at.lastOffset());
        consumer.seek(tp, nextOffset);
    }

    /**
     * Sends a record's steps, chained, without waiting; first waits for what is in flight when the
     * record's outcome depends on it (its subject or a setting has a step in flight, it deletes,
     * or its schema references others). A plain new version joins the run waiting to be sent.
     */
    private Outcome send(ConsumerRecord<byte[], byte[]> r) throws InterruptedException {
        if (!new Envelope.Source(source, r.offset(), FollowState.WHOLE_RECORD).isAfter(tipOffset, tipPart)) {
            nextOffset = r.offset() + 1; // dealt with before (the last record, read again at start)
            return Outcome.GO_ON;
        }
        List<SourceRecords.Step> steps;
        Object subject;
        try {
            LogRecord record = ConfluentLogCodec.read(r.key(), r.value());
            subject = SourceRecords.touches(record);
            Outcome settled = inFlight.mustSettleBefore(record, subject)
                    || run.imports(subject, SourceRecords.versionOf(record)) ? drain() : Outcome.GO_ON;
            while (settled == Outcome.GO_ON && inFlight.size() >= WINDOW) {
                settled = settleOldest(); // the window slides: the oldest step, not all of them
            }
            if (settled != Outcome.GO_ON) {
                return settled;
            }
            steps = SourceRecords.steps(access.view(), record);
        } catch (ConfluentLogCodec.Unreadable e) {
            return unsendable(r.offset(), e.getMessage());
        }
        for (SourceRecords.Step step : steps) {
            int part = step.part();
            if (!new Envelope.Source(source, r.offset(), part).isAfter(tipOffset, tipPart)) {
                continue; // applied before a restart
            }
            if (RUN > 1 && steps.size() == 1 && step instanceof SourceRecords.Import i && r.offset() > singlesThrough) {
                try {
                    run.add(r.offset(), subject, i.request().version(), registry.registrations().prepareCopied(
                            i.subject(), i.request(), false), tipOffset, tipPart);
                } catch (RuntimeException e) { // the import's own checks
                    return unsendable(r.offset(), e.getMessage());
                }
                tipOffset = r.offset();
                tipPart = part;
                continue;
            }
            run.send();
            Envelope.Source at = new Envelope.Source(source, r.offset(), part).after(tipOffset, tipPart);
            CompletableFuture<Applied> done;
            try {
                done = journal.submit(command(step), PRINCIPAL, at);
            } catch (RuntimeException e) { // the import's own checks, before anything is sent
                return unsendable(r.offset(), e.getMessage());
            }
            inFlight.add(new InFlightSteps.Step(r.offset(), part, subject, done,
                    step instanceof SourceRecords.Import i ? i.request().version() : null));
            tipOffset = r.offset();
            tipPart = part;
        }
        if (steps.isEmpty()) {
            nextOffset = r.offset() + 1;
        }
        lagSeconds = Math.max(0, (clock.millis() - r.timestamp()) / 1000.0);
        return Outcome.GO_ON;
    }

    private Command command(SourceRecords.Step step) {
        return step instanceof SourceRecords.Import i ? registry.registrations().prepareCopied(i.subject(), i.request())
                : ((SourceRecords.Write) step).command();
    }

    /** A record that cannot be sent: once what is in flight is settled, skipped when allowed, else the end. */
    private Outcome unsendable(long offset, String why) throws InterruptedException {
        Outcome settled = drain();
        return settled != Outcome.GO_ON ? settled : refused(offset, why) ? Outcome.RESEND : Outcome.STOP;
    }

    /** Waits for every step in flight (the run waiting sent first); the first one refused decides what happens next. */
    private Outcome drain() throws InterruptedException {
        run.send();
        while (!inFlight.isEmpty()) {
            Outcome o = settleOldest();
            if (o != Outcome.GO_ON) {
                return o;
            }
        }
        return Outcome.GO_ON;
    }

    /** The source offset of the last step counted as copied (a record's steps count once). */
    private long lastCounted = -1;

    /**
     * Waits for the oldest step in flight. Applied, it moves the follower on; refused, it decides
     * what happens next: steps chained after a step refused are refused too, so they are waited for
     * and sent again from the view's tip (RESEND), or the record cannot be applied at all. A run
     * refused as a whole is sent again one record at a time, so the record refused is known.
     */
    private Outcome settleOldest() throws InterruptedException {
        InFlightSteps.Step s = inFlight.poll();
        String failure = InFlightSteps.failure(s, writeTimeoutMs * 2);
        if (failure == null) {
            if (s.offset() != lastCounted) {
                copied.incrementAndGet();
                lastCounted = s.offset();
            }
            nextOffset = s.offset() + 1;
            return Outcome.GO_ON;
        }
        if (s.runEnd() >= 0 || failure.startsWith("out of order") || failure.contains("applied already")) {
            while (!inFlight.isEmpty()) { // another follower went ahead, or a step before this one was refused
                InFlightSteps.failure(inFlight.poll(), writeTimeoutMs * 2);
            }
            singlesThrough = Math.max(singlesThrough, s.runEnd());
            return Outcome.RESEND;
        }
        inFlight.clear();
        return refused(s.offset(), failure) ? Outcome.RESEND : Outcome.STOP;
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
        } catch (ExecutionException | TimeoutException e) {
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
}
