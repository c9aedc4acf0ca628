package io.quire.node.view.store;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * Group commit (docs/adr/0011-group-commit.md): the changes of each command go first to an
 * in-memory layer of pending writes ({@link #pending}), which every read consults before RocksDB;
 * the layer is written as one batch when it holds {@link GroupCommit#maxCommands} commands or
 * {@link GroupCommit#maxBytes} bytes, or when its oldest command is {@link GroupCommit#maxAge} old
 * at the next write, on a thread of its own ({@link #writing} while it writes), and synchronously
 * whenever the store asks ({@link #writePending}: Streams' commit, a snapshot, the close).
 *
 * <p>One lock ({@link #lock}) guards the group: the store holds it for each command's writes and
 * everything that must see the group whole (the filters' build, their save).
 */
final class GroupWriter {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final Object lock = new Object();
    private volatile GroupCommit bounds;
    /**
     * Writes not yet in RocksDB, newest value per key. Written by one thread under {@link #lock};
     * replaced by an empty layer (never cleared) once written, so a reader that took the old layer
     * before the swap still sees every value it holds, and one that takes the new layer reads
     * RocksDB after the batch is in it.
     */
    private volatile PendingLayer pending = new PendingLayer(0);
    /** The group the writer thread is writing to RocksDB, or null. */
    private volatile PendingLayer writing;
    private volatile RuntimeException failure;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "quire-view-writer");
        t.setDaemon(true);
        return t;
    });
    private int commands;
    private long bytes;
    private long since;
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong cpuNanos = new AtomicLong();
    private ViewRocks rocks;
    private BodyFile bodies;

    GroupWriter(GroupCommit bounds) {
        this.bounds = bounds;
    }

    /** The RocksDB the groups go to, once the store has opened it. */
    void writeTo(ViewRocks target, BodyFile copies) {
        this.rocks = target;
        this.bodies = copies;
    }

    /** The copy of bodies by id the groups are also written to. */
    BodyFile bodies() {
        return bodies;
    }

    /** The lock every write and every look at the whole group holds. */
    Object lock() {
        return lock;
    }

    /** The bounds of the groups written from now on. */
    void bounds(GroupCommit next) {
        synchronized (lock) {
            this.bounds = next;
        }
    }

    /** The group being filled (read it before {@link #writing}, then RocksDB). */
    PendingLayer pending() {
        return pending;
    }

    /** The group the writer thread is writing, or null. */
    PendingLayer writing() {
        return writing;
    }

    /** Starts a command's writes into {@link #pending} (holding {@link #lock}); throws if a write failed. */
    PendingLayer beginCommand() {
        failIfFailed();
        if (commands == 0) {
            since = System.nanoTime();
        }
        return pending;
    }

    /**
     * Ends a command of {@code size} bytes (holding {@link #lock}): a group past its bounds goes to
     * the writer thread, and the applier goes on into a new one; it waits only if the writer still
     * holds the group before.
     */
    void endCommand(long size) {
        bytes += size;
        commands++;
        GroupCommit b = bounds;
        if (commands >= b.maxCommands() || bytes >= b.maxBytes() || System.nanoTime() - since >= b.maxAge().toNanos()) {
            handOver();
        }
    }

    /** Commands applied but not yet handed to the writer. */
    int pendingCommands() {
        synchronized (lock) {
            return commands;
        }
    }

    /** Every applied command in RocksDB before this returns (commit, snapshot, close). */
    void writePending() {
        synchronized (lock) {
            awaitWriter();
            PendingLayer layer = pending;
            if (layer.isEmpty()) {
                return;
            }
            write(layer);
            pending = new PendingLayer(layer.size());
            commands = 0;
            bytes = 0;
        }
    }

    /** CPU time the writer thread spent writing groups (the catch-up's report). */
    long cpuNanos() {
        return cpuNanos.get();
    }

    /** RocksDB batches written (group commits). */
    long batches() {
        return batches.get();
    }

    /** Stops the writer thread (after the last {@link #writePending}) and closes the copy of bodies. */
    void shutdown() {
        thread.shutdown();
        if (bodies != null) {
            bodies.close();
        }
    }

    private void failIfFailed() {
        if (failure != null) {
            throw new ProcessorStateException("view write failed", failure);
        }
    }

    /** Waits (holding {@link #lock}) until the writer thread holds no group. */
    private void awaitWriter() {
        boolean interrupted = false;
        while (writing != null && failure == null) {
            try {
                lock.wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        failIfFailed();
    }

    /**
     * The pending group to the writer thread; a new, empty one takes its place. {@code writing}
     * is set before {@code pending} is replaced, so a reader always finds a value in one of them
     * or, once written, in RocksDB.
     */
    private void handOver() {
        awaitWriter();
        PendingLayer full = pending;
        writing = full;
        pending = new PendingLayer(full.size());
        commands = 0;
        bytes = 0;
        thread.execute(() -> {
            long t0 = CPU.getCurrentThreadCpuTime();
            try {
                write(full);
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                cpuNanos.addAndGet(CPU.getCurrentThreadCpuTime() - t0);
                synchronized (lock) {
                    writing = null;
                    lock.notifyAll();
                }
            }
        });
    }

    /**
     * One group as one RocksDB batch, handed to RocksDB in one call ({@link BatchImage}); bodies by
     * id leave the {@link BodyFile} before a batch that deletes them and join it after one that puts them.
     */
    private void write(PendingLayer layer) {
        PendingLayer.Sorted group = layer.sorted();
        bodies.deleting(group.keys(), group.values());
        rocks.write(BatchImage.of(group.keys(), group.values(), group.merges()));
        bodies.written(group.keys(), group.values());
        batches.incrementAndGet();
    }
}
