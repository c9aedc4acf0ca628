package io.quire.node.exec;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixed pool of daemon threads for one kind of work. A bounded pool refuses a task when its
 * queue is full with a 429 ({@link RegistryException}, {@code Retry-After: 1}) instead of
 * queueing without limit; an unbounded one is only for work whose amount is bounded elsewhere
 * (completions of commands already admitted), because a refusal there would land on the thread
 * that completed the future.
 */
public final class BoundedPool implements Executor, AutoCloseable {

    private final ThreadPoolExecutor executor;
    private final AtomicLong refused = new AtomicLong();

    private BoundedPool(String name, int threads, BlockingQueue<Runnable> queue) {
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, queue, r -> {
            Thread t = new PoolThread(this, r, "quire-" + name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, (r, ex) -> {
            refused.incrementAndGet();
            throw RegistryException.retryLater(ErrorCode.TOO_MANY_REQUESTS, 1,
                    "this node's " + name + " queue is full; retry");
        });
    }

    /** {@code threads} threads and at most {@code queue} waiting tasks. */
    public static BoundedPool bounded(String name, int threads, int queue) {
        return new BoundedPool(name, threads, new ArrayBlockingQueue<>(queue));
    }

    /** Never refuses: for work bounded by what was admitted before it. */
    public static BoundedPool unbounded(String name, int threads) {
        return new BoundedPool(name, threads, new LinkedBlockingQueue<>());
    }

    @Override
    public void execute(Runnable command) {
        executor.execute(command);
    }

    /** Whether the calling thread is one of this pool's: its work may go on here without a hop. */
    public boolean ownsCurrentThread() {
        return Thread.currentThread() instanceof PoolThread t && t.pool == this;
    }

    private static final class PoolThread extends Thread {
        private final BoundedPool pool;

        PoolThread(BoundedPool pool, Runnable task, String name) {
            super(task, name);
            this.pool = pool;
        }
    }

    public long refused() {
        return refused.get();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
