package io.quire.node.view.store;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * Whether the view store is open, and the reads (and open iterators) in progress. A read counts
 * itself in ({@link #enter}), then checks the flag; {@link #closeAndDrain} clears the flag, then
 * waits for the count to drain before the caller frees the native handles: no read ever touches a
 * closed RocksDB (it gets an {@link InvalidStateStoreException} instead).
 */
final class OpenGuard {

    private volatile boolean open;
    private final AtomicInteger inFlight = new AtomicInteger();

    boolean isOpen() {
        return open;
    }

    /** The store is open: reads may begin. */
    void opened() {
        open = true;
    }

    /** Begins a read; throws when the store is closed. */
    void enter() {
        inFlight.incrementAndGet();
        if (!open) {
            inFlight.decrementAndGet();
            throw closed();
        }
    }

    /** Ends a read {@link #enter} began. */
    void leave() {
        inFlight.decrementAndGet();
    }

    /** For a read answered without RocksDB: throws when the store is closed. */
    void check() {
        if (!open) {
            throw closed();
        }
    }

    /**
     * Closes: no read begins from now on; waits up to {@code seconds} for those in progress.
     * False when the store was not open.
     */
    boolean closeAndDrain(long seconds) {
        if (!open) {
            return false;
        }
        open = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return true;
    }

    private static InvalidStateStoreException closed() {
        return new InvalidStateStoreException("the view store is closed");
    }
}
