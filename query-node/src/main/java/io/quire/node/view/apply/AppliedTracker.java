package io.quire.node.view.apply;

import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.outcome.Outcome;
import io.quire.node.write.Applied;
import io.quire.node.write.Outcomes;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the node learns that a journal record was applied: completes the future of the command
 * this node sent (one correlation map for every write) and releases readers waiting for an offset
 * (read-your-writes). Called on the applier thread; futures complete there, so callers hop back
 * to their own threads.
 */
public final class AppliedTracker implements ApplyListener, Outcomes {

    private record OffsetWaiter(long offset, CompletableFuture<Offset> future) {
    }

    private final Map<CommandId, CompletableFuture<Applied>> pending = new ConcurrentHashMap<>();
    private final PriorityQueue<OffsetWaiter> waiters =
            new PriorityQueue<>((a, b) -> Long.compare(a.offset, b.offset));
    private final ApplyListener next;
    private final int maxWaiters;
    private volatile long appliedOffset = -1;

    /** Readers waiting for an offset, and no more: a flood of far-future offsets cannot pile up. */
    public static final int DEFAULT_MAX_WAITERS = 10_000;

    /** Refused: {@code maxWaiters} readers are already waiting for offsets. */
    public static final class TooManyWaiters extends RuntimeException {
        TooManyWaiters(int max) {
            super(max + " readers are already waiting for journal offsets on this node", null, false, false);
        }
    }

    public AppliedTracker(ApplyListener next) {
        this(next, DEFAULT_MAX_WAITERS);
    }

    public AppliedTracker(ApplyListener next, int maxWaiters) {
        this.next = next;
        this.maxWaiters = maxWaiters;
    }

    /** Readers waiting for an offset now. */
    public int waiting() {
        synchronized (waiters) {
            return waiters.size();
        }
    }

    @Override
    public void applied(Offset offset, Envelope envelope, Outcome outcome) {
        advanceTo(offset);
        if (envelope != null) {
            CompletableFuture<Applied> f = pending.remove(envelope.commandId());
            if (f != null) {
                f.complete(new Applied(offset, outcome));
            }
        }
        next.applied(offset, envelope, outcome);
    }

    /** Moves the applied offset forward (at start-up, from the stored position) and releases waiters. */
    public void advanceTo(Offset offset) {
        if (offset.value() <= appliedOffset) {
            return;
        }
        appliedOffset = offset.value();
        release(offset);
    }

    private void release(Offset offset) {
        while (true) {
            OffsetWaiter w;
            synchronized (waiters) {
                w = waiters.peek();
                if (w == null || w.offset > offset.value()) {
                    return;
                }
                waiters.poll();
            }
            w.future.complete(offset);
        }
    }

    /** The last offset applied, as a number (for gauges and lag arithmetic). */
    public long appliedOffset() {
        return appliedOffset;
    }

    /** Registers interest in a command before it is sent, so its outcome cannot be missed. */
    @Override
    public CompletableFuture<Applied> expect(CommandId commandId) {
        CompletableFuture<Applied> f = new CompletableFuture<>();
        pending.put(commandId, f);
        return f;
    }

    @Override
    public void forget(CommandId commandId) {
        pending.remove(commandId);
    }

    /**
     * Completes once the view has applied {@code offset}; the caller bounds the wait. At most
     * {@code maxWaiters} wait at once: one more fails at once with {@link TooManyWaiters}.
     */
    public CompletableFuture<Offset> awaitOffset(Offset offset) {
        long now = appliedOffset;
        if (offset.value() <= now) {
            return CompletableFuture.completedFuture(Offset.of(now));
        }
        CompletableFuture<Offset> f = new CompletableFuture<>();
        OffsetWaiter w = new OffsetWaiter(offset.value(), f);
        synchronized (waiters) {
            if (waiters.size() >= maxWaiters) {
                return CompletableFuture.failedFuture(new TooManyWaiters(maxWaiters));
            }
            waiters.add(w);
        }
        f.whenComplete((v, err) -> {
            if (err != null) {
                synchronized (waiters) {
                    waiters.remove(w);
                }
            }
        });
        release(Offset.of(appliedOffset)); // the offset may have been applied while the waiter was being added
        return f;
    }
}
