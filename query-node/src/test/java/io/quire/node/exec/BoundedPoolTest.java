package io.quire.node.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class BoundedPoolTest {

    @Test
    void aFullPoolRefusesWith429AndRetryAfter() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        try (BoundedPool pool = BoundedPool.bounded("test", 1, 1)) {
            pool.execute(() -> {
                running.countDown();
                await(release);
            });
            running.await();
            pool.execute(() -> { });             // waits in the queue
            RegistryException e = assertThrows(RegistryException.class, () -> pool.execute(() -> { }));
            assertEquals(ErrorCode.TOO_MANY_REQUESTS, e.error());
            assertEquals(429, e.error().httpStatus);
            assertEquals(1, e.retryAfterSeconds());
            assertEquals(1, pool.refused());
            release.countDown();
        }
    }

    @Test
    void anUnboundedPoolNeverRefuses() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (BoundedPool pool = BoundedPool.unbounded("test", 1)) {
            pool.execute(() -> await(release));
            for (int i = 0; i < 10_000; i++) {
                pool.execute(() -> { });
            }
            assertEquals(0, pool.refused());
            release.countDown();
        }
    }

    @Test
    void aPoolKnowsItsOwnThreads() throws Exception {
        try (BoundedPool pool = BoundedPool.bounded("mine", 1, 1); BoundedPool other = BoundedPool.bounded("other", 1, 1)) {
            assertFalse(pool.ownsCurrentThread());
            assertTrue(java.util.concurrent.CompletableFuture.supplyAsync(pool::ownsCurrentThread, pool).get());
            assertFalse(java.util.concurrent.CompletableFuture.supplyAsync(pool::ownsCurrentThread, other).get());
        }
    }

    static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
