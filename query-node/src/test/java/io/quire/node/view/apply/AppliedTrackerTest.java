package io.quire.node.view.apply;

import io.quire.journal.model.Offset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AppliedTrackerTest {

    @Test
    void readersWaitingForOffsetsAreBounded() throws Exception {
        AppliedTracker tracker = new AppliedTracker((o, e, out) -> { }, 2);
        CompletableFuture<Offset> a = tracker.awaitOffset(Offset.of(10));
        CompletableFuture<Offset> b = tracker.awaitOffset(Offset.of(Long.MAX_VALUE));
        ExecutionException full = assertThrows(ExecutionException.class, () -> tracker.awaitOffset(Offset.of(11)).get());
        assertInstanceOf(AppliedTracker.TooManyWaiters.class, full.getCause());
        assertTrue(tracker.awaitOffset(Offset.of(-1)).isDone(), "an offset already applied never waits");
        tracker.advanceTo(Offset.of(10));
        assertEquals(Offset.of(10), a.get(1, TimeUnit.SECONDS));
        assertEquals(1, tracker.waiting());
        b.completeExceptionally(new java.util.concurrent.TimeoutException()); // the caller's bound fired
        assertEquals(0, tracker.waiting(), "a waiter that gave up leaves the queue");
        assertFalse(tracker.awaitOffset(Offset.of(12)).isCompletedExceptionally(), "there is room again");
    }
}
