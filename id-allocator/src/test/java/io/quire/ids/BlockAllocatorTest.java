package io.quire.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BlockAllocatorTest {

    /** A leaser that grants blocks the way the applier does, from one shared watermark. */
    static final class JournalLikeLeaser implements BlockLeaser {
        final AtomicLong watermark = new AtomicLong(BlockGrants.FIRST_ID);
        final List<CompletableFuture<IdBlock>> held = new ArrayList<>();
        boolean hold;

        @Override
        public synchronized CompletableFuture<IdBlock> lease(int size) {
            CompletableFuture<IdBlock> f = new CompletableFuture<>();
            if (hold) {
                held.add(f);
                return f;
            }
            f.complete(grant(size));
            return f;
        }

        IdBlock grant(int size) {
            synchronized (watermark) {
                IdBlock b = BlockGrants.grant(watermark.get(), size);
                watermark.set(b.end());
                return b;
            }
        }

        synchronized void release() {
            hold = false;
            for (CompletableFuture<IdBlock> f : held) {
                f.complete(grant(10));
            }
            held.clear();
        }
    }

    @Test
    void handsOutConsecutiveIdsFromOneBlockAndPrefetchesAtNinetyPercent() throws Exception {
        JournalLikeLeaser leaser = new JournalLikeLeaser();
        BlockAllocator allocator = new BlockAllocator(leaser, 10);
        for (long expected = 1; expected <= 8; expected++) {
            assertEquals(expected, allocator.nextId().toCompletableFuture().get());
        }
        assertEquals(1, allocator.leases(), "no prefetch before 90% of the block is used");
        assertEquals(9L, allocator.nextId().toCompletableFuture().get());
        assertEquals(2, allocator.leases(), "the 9th of 10 ids triggers the prefetch");
        assertEquals(10L, allocator.nextId().toCompletableFuture().get());
        assertEquals(11L, allocator.nextId().toCompletableFuture().get(), "prefetched block follows");
    }

    @Test
    void idsTakenByAnImportArePassedOverAcrossBlocks() throws Exception {
        JournalLikeLeaser leaser = new JournalLikeLeaser();
        BlockAllocator allocator = new BlockAllocator(leaser, 10);
        java.util.Set<Long> imported = java.util.Set.of(2L, 3L, 4L, 10L, 11L);
        List<Long> got = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            got.add(allocator.nextId(imported::contains).toCompletableFuture().get());
        }
        assertEquals(List.of(1L, 5L, 6L, 7L, 8L, 9L, 12L, 13L), got);
    }

    @Test
    void aRestartedAllocatorLeasesAFreshBlockAndNeverReusesAnId() throws Exception {
        JournalLikeLeaser leaser = new JournalLikeLeaser();
        BlockAllocator first = new BlockAllocator(leaser, 100);
        long a = first.nextId().toCompletableFuture().get();
        BlockAllocator restarted = new BlockAllocator(leaser, 100);
        long b = restarted.nextId().toCompletableFuture().get();
        assertEquals(1, a);
        assertEquals(101, b, "the rest of the first block is abandoned, not reused");
    }

    @Test
    void anIdNotReadyNowLeavesNoWaiterAndLosesNoId() throws Exception {
        JournalLikeLeaser leaser = new JournalLikeLeaser();
        leaser.hold = true;
        BlockAllocator allocator = new BlockAllocator(leaser, 10);
        for (int i = 0; i < 3; i++) {
            assertNull(allocator.tryNextId(id -> false), "no block yet");
        }
        assertEquals(1, allocator.leases(), "one lease asked for, however many asked");
        leaser.release();
        assertEquals(1L, allocator.tryNextId(id -> false), "the granted block's first id went to nobody before");
        assertEquals(3L, allocator.tryNextId(id -> id == 2L), "taken ids are passed over");
        assertEquals(4L, allocator.nextId().toCompletableFuture().get());
    }

    @Test
    void waitersAreServedWhenALeaseArrives() throws Exception {
        JournalLikeLeaser leaser = new JournalLikeLeaser();
        leaser.hold = true;
        BlockAllocator allocator = new BlockAllocator(leaser, 10);
        List<CompletableFuture<Long>> waiting = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            waiting.add(allocator.nextId().toCompletableFuture());
        }
        assertFalse(waiting.get(0).isDone());
        assertEquals(1, allocator.leases(), "one lease in flight however many wait");
        leaser.release();
        // The first block serves 10; the allocator leases again for the other 5.
        leaser.release();
        Set<Long> ids = new HashSet<>();
        for (CompletableFuture<Long> f : waiting) {
            ids.add(f.get(1, TimeUnit.SECONDS));
        }
        assertEquals(15, ids.size());
    }

    @Test
    void aFailedLeaseFailsTheWaitersAndTheNextCallRetries() throws Exception {
        List<Integer> calls = new ArrayList<>();
        BlockAllocator allocator = new BlockAllocator(size -> {
            calls.add(size);
            if (calls.size() == 1) {
                return CompletableFuture.failedFuture(new IllegalStateException("journal down"));
            }
            return CompletableFuture.completedFuture(new IdBlock(500, size));
        }, 5);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> allocator.nextId().toCompletableFuture().get());
        assertTrue(e.getCause() instanceof IllegalStateException);
        assertEquals(500L, allocator.nextId().toCompletableFuture().get());
    }

    @Test
    void concurrentCallersGetDistinctIdsAcrossNodes() throws Exception {
        JournalLikeLeaser leaser = new JournalLikeLeaser();
        List<BlockAllocator> nodes = List.of(new BlockAllocator(leaser, 7), new BlockAllocator(leaser, 13),
                new BlockAllocator(leaser, 1));
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                BlockAllocator node = nodes.get(t % nodes.size());
                results.add(pool.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < 2_000; i++) {
                        mine.add(node.nextId().toCompletableFuture().get());
                    }
                    return mine;
                }));
            }
            Set<Long> all = new HashSet<>();
            int count = 0;
            for (Future<List<Long>> r : results) {
                for (long id : r.get()) {
                    all.add(id);
                    count++;
                }
            }
            assertEquals(count, all.size(), "no id handed out twice");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void grantRuleIsJournalOrderedAndBounded() {
        IdBlock first = BlockGrants.grant(BlockGrants.FIRST_ID, 1000);
        IdBlock second = BlockGrants.grant(first.end(), 1000);
        assertEquals(1, first.start());
        assertEquals(1001, second.start());
        assertNull(BlockGrants.grant(BlockGrants.MAX_ID - 5, 10), "never past the 4-byte id space");
        assertEquals(2001, BlockGrants.watermarkAfterExplicit(1001, 2000));
        assertEquals(1001, BlockGrants.watermarkAfterExplicit(1001, 7));
        assertThrows(IllegalArgumentException.class, () -> BlockGrants.grant(1, 0));
    }
}
