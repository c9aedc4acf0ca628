package io.quire.node.write;

import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.outcome.BlockGranted;
import io.quire.node.error.RegistryException;
import io.quire.node.exec.BoundedPool;
import io.quire.node.view.apply.AppliedTracker;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sender's guarantees, with Kafka's own in-memory producer standing in for a broker that is
 * away: a command whose caller timed out is never appended later, a full queue is refused at once,
 * and outcomes reach the caller off the thread that applied them.
 */
class CommandSubmitterTest {

    /** A producer whose {@code send} blocks until released, as a real one does without metadata. */
    static final class StalledProducer extends MockProducer<byte[], byte[]> {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);

        StalledProducer() {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.send(record, callback);
        }
    }

    final AppliedTracker tracker = new AppliedTracker((offset, envelope, outcome) -> { });
    final BoundedPool outcomes = BoundedPool.unbounded("outcome-test", 1);
    CommandSubmitter submitter;

    @AfterEach
    void close() {
        if (submitter != null) {
            submitter.close();
        }
        outcomes.close();
    }

    static LeaseIdBlock lease() {
        return new LeaseIdBlock("n", "r", 10);
    }

    static Throwable failure(CompletableFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        return e.getCause();
    }

    @Test
    void aCommandWhoseCallerTimedOutIsNeverSent() throws Exception {
        StalledProducer producer = new StalledProducer();
        submitter = new CommandSubmitter(producer, "j", "n", tracker, 200, Clock.systemUTC(), outcomes, 100);
        CompletableFuture<?> first = submitter.submit(lease(), Principal.of("p"));   // taken by the sender, blocks in send
        assertTrue(producer.entered.await(10, TimeUnit.SECONDS));
        CompletableFuture<?> queued = submitter.submit(lease(), Principal.of("p"));  // waits behind it
        RegistryException timedOut = assertInstanceOf(RegistryException.class, failure(queued));
        assertEquals(ErrorCode.OPERATION_TIMEOUT, timedOut.error());
        assertInstanceOf(RegistryException.class, failure(first));
        producer.release.countDown(); // the brokers are back
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (submitter.dropped() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, submitter.dropped(), "the queued command was dropped, not sent");
        assertEquals(1, producer.history().size(), "only the command already inside send() reached the producer");
    }

    @Test
    void aFullQueueIsRefusedAtOnceWith429() throws Exception {
        StalledProducer producer = new StalledProducer();
        submitter = new CommandSubmitter(producer, "j", "n", tracker, 5_000, Clock.systemUTC(), outcomes, 2);
        submitter.submit(lease(), Principal.of("p"));
        assertTrue(producer.entered.await(10, TimeUnit.SECONDS), "the first command is inside send()");
        submitter.submit(lease(), Principal.of("p"));
        submitter.submit(lease(), Principal.of("p"));
        CompletableFuture<?> refused = submitter.submit(lease(), Principal.of("p"));
        assertTrue(refused.isCompletedExceptionally(), "refused at once, not after the write timeout");
        RegistryException full = assertInstanceOf(RegistryException.class, failure(refused));
        assertEquals(ErrorCode.TOO_MANY_REQUESTS, full.error());
        assertEquals(1, full.retryAfterSeconds());
        producer.release.countDown();
    }

    @Test
    void outcomesReachTheCallerOffTheApplierThread() throws Exception {
        MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        submitter = new CommandSubmitter(producer, "j", "n", tracker, 5_000, Clock.systemUTC(), outcomes, 10);
        AtomicReference<String> callbackThread = new AtomicReference<>();
        CompletableFuture<?> done = submitter.submit(lease(), Principal.of("p"))
                .thenAccept(a -> callbackThread.set(Thread.currentThread().getName()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (producer.history().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Envelope sent = JournalCodec.decode(producer.history().get(0).value());
        Thread applier = new Thread(() -> tracker.applied(Offset.of(0), sent, new BlockGranted(1, 10)), "applier");
        applier.start();
        applier.join();
        done.get(10, TimeUnit.SECONDS);
        assertNotEquals("applier", callbackThread.get());
        assertTrue(callbackThread.get().startsWith("quire-outcome-test"), callbackThread.get());
    }
}
