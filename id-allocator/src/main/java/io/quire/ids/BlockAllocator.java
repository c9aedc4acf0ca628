package io.quire.ids;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongPredicate;

/**
 * Hands out ids from the node's current block without coordination, and leases the next block
 * once {@code prefetchRatio} of the current one is used, so writers rarely wait for a lease.
 *
 * <p>A new allocator always starts without a block: after a restart a node leases a fresh one and
 * abandons whatever was left of its previous block. Ids can have gaps; they are never reused.
 */
public final class BlockAllocator {

    private final BlockLeaser leaser;
    private final int blockSize;
    private final double prefetchRatio;

    private IdBlock current;
    private long nextInCurrent;
    private IdBlock prefetched;
    private CompletableFuture<IdBlock> pending;
    private final Deque<CompletableFuture<Long>> waiters = new ArrayDeque<>();
    private long leases;

    public BlockAllocator(BlockLeaser leaser, int blockSize) {
        this(leaser, blockSize, 0.9);
    }

    public BlockAllocator(BlockLeaser leaser, int blockSize, double prefetchRatio) {
        if (!BlockGrants.validSize(blockSize)) {
            throw new IllegalArgumentException("invalid block size " + blockSize);
        }
        if (prefetchRatio <= 0 || prefetchRatio > 1) {
            throw new IllegalArgumentException("prefetch ratio must be in (0, 1]");
        }
        this.leaser = leaser;
        this.blockSize = blockSize;
        this.prefetchRatio = prefetchRatio;
    }

    /** The next id: at once when the block has one left, otherwise once the next lease is granted. */
    public CompletionStage<Long> nextId() {
        return nextId(id -> false);
    }

    /**
     * As {@link #nextId()}, passing over ids of the current blocks for which {@code taken} holds
     * (ids kept by an import inside a block this node leased earlier). An id from a block granted
     * while waiting is not tested: check it again and ask once more if needed.
     */
    public synchronized CompletionStage<Long> nextId(LongPredicate taken) {
        Long id = takeLocked(taken);
        if (id != null) {
            return CompletableFuture.completedFuture(id);
        }
        CompletableFuture<Long> waiter = new CompletableFuture<>();
        waiters.add(waiter); // before the lease: a leaser may grant at once, inside startLeaseLocked
        startLeaseLocked();
        return waiter;
    }

    /**
     * The next id if the current blocks have one left (passing over those {@code taken} holds),
     * else null, having asked for the next lease. Unlike {@link #nextId}, a null leaves no waiter
     * behind: a caller that goes another way when no id is ready does not make the lease's grant
     * hand one to nobody.
     */
    public synchronized Long tryNextId(LongPredicate taken) {
        Long id = takeLocked(taken);
        if (id == null) {
            startLeaseLocked();
        }
        return id;
    }

    /** The next id of the current blocks that {@code taken} does not hold, or null; prefetches as ids are used. */
    private Long takeLocked(LongPredicate taken) {
        Long id = takeLocked();
        while (id != null && taken.test(id)) {
            id = takeLocked();
        }
        if (id != null) {
            maybePrefetchLocked();
        }
        return id;
    }

    /** How many leases this allocator asked for since it was created. */
    public synchronized long leases() {
        return leases;
    }

    private Long takeLocked() {
        if ((current == null || nextInCurrent >= current.end()) && prefetched != null) {
            current = prefetched;
            nextInCurrent = current.start();
            prefetched = null;
        }
        if (current != null && nextInCurrent < current.end()) {
            return nextInCurrent++;
        }
        return null;
    }

    private void maybePrefetchLocked() {
        if (prefetched != null || pending != null) {
            return;
        }
        long used = nextInCurrent - current.start();
        if (used >= Math.ceil(current.size() * prefetchRatio)) {
            startLeaseLocked();
        }
    }

    private void startLeaseLocked() {
        if (pending != null) {
            return;
        }
        leases++;
        CompletableFuture<IdBlock> lease;
        try {
            lease = leaser.lease(blockSize).toCompletableFuture();
        } catch (RuntimeException e) {
            lease = CompletableFuture.failedFuture(e);
        }
        pending = lease;
        lease.whenComplete(this::onLease);
    }

    private void onLease(IdBlock block, Throwable error) {
        List<Runnable> completions = new ArrayList<>();
        synchronized (this) {
            pending = null;
            if (error != null) {
                while (!waiters.isEmpty()) {
                    CompletableFuture<Long> w = waiters.poll();
                    completions.add(() -> w.completeExceptionally(error));
                }
            } else {
                prefetched = block;
                while (!waiters.isEmpty()) {
                    Long id = takeLocked();
                    if (id == null) {
                        break;
                    }
                    CompletableFuture<Long> w = waiters.poll();
                    completions.add(() -> w.complete(id));
                }
                if (!waiters.isEmpty()) {
                    startLeaseLocked();
                } else if (current != null) {
                    maybePrefetchLocked();
                }
            }
        }
        completions.forEach(Runnable::run);
    }
}
