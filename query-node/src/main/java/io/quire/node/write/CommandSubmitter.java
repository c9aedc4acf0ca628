package io.quire.node.write;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Command;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.view.AppliedTracker;
import io.quire.node.view.AppliedTracker.Applied;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The one submit-and-wait path: wrap a command in an envelope, append it to the journal and
 * complete when this node has applied it, with the outcome and the offset. Bounded by the write
 * timeout (50002); a refused append is a store error (50001).
 */
public final class CommandSubmitter implements AutoCloseable {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final String nodeId;
    private final AppliedTracker tracker;
    private final long timeoutMs;
    private final Clock clock;
    // send() can block while the producer has no metadata (brokers down): never on an event loop.
    private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "quire-journal-sender");
        t.setDaemon(true);
        return t;
    });

    public CommandSubmitter(Producer<byte[], byte[]> producer, String topic, String nodeId, AppliedTracker tracker,
                            long timeoutMs, Clock clock) {
        this.producer = producer;
        this.topic = topic;
        this.nodeId = nodeId;
        this.tracker = tracker;
        this.timeoutMs = timeoutMs;
        this.clock = clock;
    }

    public CompletableFuture<Applied> submit(Command command, String principal) {
        String commandId = UUID.randomUUID().toString();
        Envelope envelope = Envelope.of(commandId, nodeId, principal, clock.millis(), command);
        byte[] bytes = JournalCodec.encode(envelope);
        // Never a null key: Kafka Streams skips null-keyed records when it restores a global store.
        byte[] key = commandId.getBytes(StandardCharsets.UTF_8);
        CompletableFuture<Applied> applied = tracker.expect(commandId);
        try {
            sender.execute(() -> {
                try {
                    producer.send(new ProducerRecord<>(topic, 0, key, bytes), (md, err) -> {
                        if (err != null) {
                            fail(commandId, applied, err);
                        }
                    });
                } catch (RuntimeException e) {
                    fail(commandId, applied, e);
                }
            });
        } catch (RuntimeException e) {
            fail(commandId, applied, e);
        }
        return applied.orTimeout(timeoutMs, TimeUnit.MILLISECONDS).handle((a, err) -> {
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
            throw RegistryException.of(ErrorCode.STORE_ERROR, "journal append failed: " + cause.getMessage());
        });
    }

    private void fail(String commandId, CompletableFuture<Applied> applied, Throwable err) {
        tracker.forget(commandId);
        applied.completeExceptionally(err);
    }

    @Override
    public void close() {
        sender.shutdown();
    }
}
