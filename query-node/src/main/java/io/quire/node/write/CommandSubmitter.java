package io.quire.node.write;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.node.error.RegistryException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The one submit-and-wait path: wrap a command in an envelope, append it to the journal and
 * complete when this node has applied it, with the outcome and the offset. Bounded by the write
 * timeout (50002); a refused append is a store error (50001).
 *
 * <p>Sends go through one thread, because {@code send} blocks while the producer has no
 * metadata (brokers away). Its queue is bounded (a full queue answers 429 at once) and a command
 * whose caller has already been answered — timed out while it waited — is dropped, never sent:
 * an answer of 50002 means the command did not reach the journal later from this queue. The
 * producer's delivery timeout bounds what happens after the hand-over. Outcomes are handed to the
 * caller on {@code callbacks}, never on the applier thread that completes them.
 */
public final class CommandSubmitter implements JournalPort, AutoCloseable {

    public static final int DEFAULT_QUEUE = 10_000;

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final String nodeId;
    private final Outcomes tracker;
    private final long timeoutMs;
    private final Clock clock;
    private final Executor callbacks;
    private final ThreadPoolExecutor sender;
    private final AtomicLong dropped = new AtomicLong();
    private volatile IntSupplier epoch = () -> 0;

    public CommandSubmitter(Producer<byte[], byte[]> producer, String topic, String nodeId, Outcomes tracker,
                            long timeoutMs, Clock clock, Executor callbacks, int queueCapacity) {
        this.producer = producer;
        this.topic = topic;
        this.nodeId = nodeId;
        this.tracker = tracker;
        this.timeoutMs = timeoutMs;
        this.clock = clock;
        this.callbacks = callbacks;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queueCapacity),
                r -> {
                    Thread t = new Thread(r, "quire-journal-sender");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    /** Where the region epoch stamped on every envelope comes from (the view's; 0 until a promotion). */
    public void stampEpoch(IntSupplier source) {
        this.epoch = source;
    }

    @Override
    public CompletableFuture<Applied> submit(Command command, Principal principal) {
        return submit(command, principal, null);
    }

    @Override
    public CompletableFuture<Applied> submit(Command command, Principal principal, Envelope.Source source) {
        CommandId commandId = CommandId.random();
        Envelope envelope = Envelope.of(commandId, nodeId, principal, clock.millis(), command);
        if (source != null) {
            envelope = envelope.from(source);
        }
        int regionEpoch = epoch.getAsInt();
        if (regionEpoch > 0) {
            envelope = envelope.atEpoch(regionEpoch);
        }
        byte[] bytes = JournalCodec.encode(envelope);
        // Never a null key: Kafka Streams skips null-keyed records when it restores a global store.
        byte[] key = commandId.value().getBytes(StandardCharsets.UTF_8);
        CompletableFuture<Applied> applied = tracker.expect(commandId);
        applied.orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        try {
            sender.execute(() -> send(commandId, applied, key, bytes));
        } catch (RejectedExecutionException e) {
            tracker.forget(commandId);
            return CompletableFuture.failedFuture(RegistryException.retryLater(ErrorCode.TOO_MANY_REQUESTS, 1,
                    "the journal send queue of this node is full (" + sender.getQueue().size() + " commands); retry"));
        }
        return applied.handleAsync((a, err) -> {
            if (err == null) {
                return a;
            }
            tracker.forget(commandId);
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            if (cause instanceof TimeoutException
                    || cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw RegistryException.of(ErrorCode.OPERATION_TIMEOUT,
                        "the journal did not apply the command within " + timeoutMs + " ms");
            }
            if (cause instanceof RegistryException r) {
                throw r;
            }
            throw RegistryException.withCause(ErrorCode.STORE_ERROR, cause, "journal append failed");
        }, callbacks);
    }

    private void send(CommandId commandId, CompletableFuture<Applied> applied, byte[] key, byte[] bytes) {
        if (applied.isDone()) {
            dropped.incrementAndGet(); // its caller was answered while it waited: never append it
            return;
        }
        try {
            producer.send(new ProducerRecord<>(topic, 0, key, bytes), (md, err) -> {
                if (err != null) {
                    tracker.forget(commandId);
                    applied.completeExceptionally(err);
                }
            });
        } catch (RuntimeException e) {
            tracker.forget(commandId);
            applied.completeExceptionally(e);
        }
    }

    /** Commands dropped unsent because their caller had already been answered. */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        sender.shutdown();
    }
}
