package io.quire.node.view.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prepared bodies of {@code GET /schemas/ids/{id}} in the default context (keys {@code I}),
 * copied into a file of their own as the view writes them, and read from it by id with one
 * positional read: docs/adr/0019-bodies-by-id-beside-the-view.md.
 *
 * <p>A read by id from RocksDB's files costs a walk of its levels, an index block's binary search,
 * a block cache lookup and, past the cache, a block read, which over millions of ids is several
 * times a read from the memtable. Here an id maps to an offset and a length in an in-memory table
 * (8 bytes an id, in chunks of {@value #CHUNK} ids allocated as ids arrive), and the bytes come from
 * the file through the page cache, which is not the node's resident memory.
 *
 * <p>The file is a copy, never the record: RocksDB stays the view. It is emptied whenever the
 * store opens and then holds what the store writes (a fill, an import, a catch-up or replay, a
 * follower's copy); a store that opens with data also copies the bodies it holds into it, on a
 * thread of its own ({@link #fillInBackground}), and ids not copied yet are read from RocksDB as
 * before. A value is put here after its batch
 * is in RocksDB and taken out before a batch that deletes it, and readers look here only after the
 * pending layers, so a read finds what a read of RocksDB would. Ids at or above {@link #MAX_ID},
 * bodies of {@link #MAX_BODY} bytes or more, ids past {@link #MAX_CHUNKS} chunks and writes past
 * {@link #MAX_BYTES} of file stay in RocksDB only. Any I/O error turns the file off for good (until
 * the store opens again) and reads go to RocksDB.
 */
final class BodyFile implements AutoCloseable {

    static final String NAME = "quire-bodies";
    static final int CHUNK_BITS = 12;
    static final int CHUNK = 1 << CHUNK_BITS;
    /** Ids below this are held (imported ids above it are rare). */
    static final long MAX_ID = 1L << 27;
    /** At most this many chunks of 32 KiB: 32 MiB of heap, 4 M ids when they are dense. */
    static final int MAX_CHUNKS = 1024;
    static final long MAX_BYTES = 8L << 30;
    static final int MAX_BODY = 1 << 24;
    /** The bodies one group or one step of the fill appends at most (the rest of a larger group stay out). */
    static final int MAX_GROUP = 1 << 30;
    private static final int FILL_CHUNK = 4096;
    private static final byte[] SCHEMAS = {'I'};
    private static final int LENGTH_BITS = 24;
    private static final Logger LOG = LoggerFactory.getLogger(BodyFile.class);

    private final Path path;
    /** Opened again when a thread's interrupt closed it ({@link #reopen}). */
    private volatile FileChannel channel;
    private final AtomicReferenceArray<AtomicLongArray> chunks = new AtomicReferenceArray<>((int) (MAX_ID >> CHUNK_BITS));
    /** Written holding this (the writer's groups and the fill append one at a time); volatile for the disk gauge. */
    private volatile long end;
    private int allocated;
    /** Ids deleted since the fill began (it must not bring them back), while it runs; guarded by this. */
    private Set<Long> deletedWhileFilling;
    private volatile boolean on = true;

    /**
     * Slots of bodies read lately, one per id modulo {@value #CACHE_SLOTS}: a registry's clients
     * resolve a few ids over and over, and a slot spares such a read its system call (reads over
     * 1,000 ids: {@code read} from 11.9 % to 0.8 % of a node's samples, ADR 0019). A slot names the
     * table entry it was read for, and an entry's offset belongs to one id and is never published
     * twice in a file (it is only appended to while this object lives), so a slot whose entry is not
     * the id's current one is never used: a body deleted or put again since is read from the file.
     * Bodies over {@value #CACHE_BODY} bytes are not kept, so the slots hold 16 MiB of heap at most,
     * and a body is kept only when read twice in a row for its slot ({@link #missed}). Callers never
     * change a body they read.
     */
    static final int CACHE_SLOTS = 4096;
    static final int CACHE_BODY = 4096;
    private final Cached[] cached = new Cached[CACHE_SLOTS];
    /**
     * The entry each slot last missed: a body takes its slot on the second read of one entry in a
     * row, so reads spread over millions of ids (each id once in a long while) leave the slots
     * alone instead of replacing one at every read, an object promoted and dropped each time.
     */
    private final long[] missed = new long[CACHE_SLOTS];

    /** A body as read for one table entry (final fields: safe to publish through the plain array). */
    private record Cached(long entry, byte[] body) {
    }

    private BodyFile(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** The file in {@code dir}, emptied; one that holds nothing (reads go to RocksDB) when it cannot be opened. */
    static BodyFile open(Path dir) {
        Path path = dir.resolve(NAME);
        try {
            return new BodyFile(path, FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING));
        } catch (IOException e) {
            LOG.warn("cannot open {}: reads by id go to the view's files", path, e);
            BodyFile none = new BodyFile(path, null);
            none.on = false;
            return none;
        }
    }

    /** Whether {@code key} is a key of the default context's content by id ({@code I} and eight bytes). */
    static boolean covers(byte[] key) {
        return key.length == 9 && key[0] == 'I';
    }

    /**
     * The body of {@code key} (one {@link #covers} accepts), or null when this file does not hold
     * it. A thread with its interrupt set reads RocksDB instead: a {@code FileChannel} closes itself
     * when an interrupted thread uses it, for every thread.
     */
    byte[] read(byte[] key) {
        long id = id(key);
        long e = entry(id);
        if (e == 0 || !on) {
            return null;
        }
        int slot = (int) (id & (CACHE_SLOTS - 1));
        Cached hit = cached[slot];
        if (hit != null && hit.entry() == e) {
            return hit.body();
        }
        if (Thread.currentThread().isInterrupted()) {
            return null;
        }
        byte[] body = new byte[(int) (e & ((1L << LENGTH_BITS) - 1))];
        ByteBuffer into = ByteBuffer.wrap(body);
        long at = e >>> LENGTH_BITS;
        FileChannel c = channel;
        try {
            while (into.hasRemaining()) {
                if (c.read(into, at + into.position()) < 0) {
                    throw new IOException("the file ends before the body of id " + id);
                }
            }
        } catch (ClosedChannelException closed) {
            reopen(c);
            return null;
        } catch (IOException err) {
            off(err);
            return null;
        }
        if (body.length <= CACHE_BODY) {
            if (missed[slot] == e) {
                cached[slot] = new Cached(e, body);
            } else {
                missed[slot] = e; // a plain write: a lost or stale one only delays or spends a slot
            }
        }
        return body;
    }

    /** Whether id's body is held in its slot for its current entry (for tests). */
    boolean inSlot(long id) {
        long e = entry(id);
        Cached hit = cached[(int) (id & (CACHE_SLOTS - 1))];
        return e != 0 && hit != null && hit.entry() == e;
    }

    /** Before a batch is written: the ids it deletes leave the file's table. */
    synchronized void deleting(byte[][] keys, byte[][] values) {
        for (int i = 0; i < keys.length; i++) {
            if (values[i] == null && covers(keys[i])) {
                long id = id(keys[i]);
                AtomicLongArray chunk = existingChunk(id);
                if (chunk != null) {
                    chunk.set((int) (id & (CHUNK - 1)), 0);
                }
                if (deletedWhileFilling != null) {
                    deletedWhileFilling.add(id);
                }
            }
        }
    }

    /** After a batch is in RocksDB: the bodies it puts are appended, then found by id. */
    synchronized void written(byte[][] keys, byte[][] values) {
        append(keys, values, false);
    }

    /**
     * Copies into the file the bodies RocksDB held when this began, for a store that opened with
     * data (a restart, a view installed from a snapshot), on a thread of its own. An id the writer
     * put or deleted meanwhile keeps what the writer gave it. Stops when the store closes.
     */
    void fillInBackground(RocksDB db, OpenGuard guard) {
        synchronized (this) {
            deletedWhileFilling = new HashSet<>();
        }
        Thread filler = new Thread(() -> fill(db, guard), "quire-view-bodies");
        filler.setDaemon(true);
        filler.start();
    }

    private void fill(RocksDB db, OpenGuard guard) {
        long t0 = System.nanoTime();
        long read = 0;
        try {
            guard.enter();
        } catch (InvalidStateStoreException e) {
            return; // closed before it began
        }
        try (ReadOptions scan = new ReadOptions().setFillCache(false); // a scan of every body: not the readers' cache
             RocksIterator it = db.newIterator(scan)) {
            List<byte[]> keys = new ArrayList<>(FILL_CHUNK);
            List<byte[]> values = new ArrayList<>(FILL_CHUNK);
            for (it.seek(SCHEMAS); it.isValid() && on && guard.isOpen(); it.next()) {
                byte[] k = it.key();
                if (k.length == 0 || k[0] != 'I') {
                    break;
                }
                keys.add(k);
                values.add(it.value());
                read++;
                if (keys.size() == FILL_CHUNK) {
                    filled(keys, values);
                }
            }
            it.status();
            filled(keys, values);
            if (read > 0) {
                LOG.info("bodies by id of the view copied beside it: {} in {} ms", read, (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (RocksDBException | RuntimeException e) {
            LOG.warn("copying the view's bodies by id beside it stopped after {}; the others are read from RocksDB", read, e);
        } finally {
            synchronized (this) {
                deletedWhileFilling = null;
            }
            guard.leave();
        }
    }

    private synchronized void filled(List<byte[]> keys, List<byte[]> values) {
        append(keys.toArray(new byte[0][]), values.toArray(new byte[0][]), true);
        keys.clear();
        values.clear();
    }

    /** Appends the bodies of {@code keys} (of the fill: only ids without one that were not deleted since it began). */
    private void append(byte[][] keys, byte[][] values, boolean filling) {
        if (!on) {
            return;
        }
        boolean[] take = new boolean[keys.length];
        long size = 0;
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null && covers(keys[i]) && holds(keys[i], values[i]) && size + values[i].length <= MAX_GROUP
                    && (!filling || entry(id(keys[i])) == 0 && !deletedWhileFilling.contains(id(keys[i])))) {
                take[i] = true;
                size += values[i].length;
            }
        }
        if (size == 0 || end + size > MAX_BYTES) {
            return;
        }
        ByteBuffer out = ByteBuffer.allocate((int) size);
        long[] at = new long[keys.length];
        long base = end;
        for (int i = 0; i < keys.length; i++) {
            if (take[i]) {
                at[i] = ((base + out.position()) << LENGTH_BITS) | values[i].length;
                out.put(values[i]);
            }
        }
        out.flip();
        FileChannel c = channel;
        try {
            while (out.hasRemaining()) {
                c.write(out, base + out.position());
            }
        } catch (ClosedChannelException closed) { // these bodies stay in RocksDB only
            reopen(c);
            return;
        } catch (IOException err) {
            off(err);
            return;
        }
        end = base + size;
        for (int i = 0; i < keys.length; i++) {
            if (take[i]) {
                long id = id(keys[i]);
                AtomicLongArray chunk = chunk(id);
                if (chunk != null) {
                    chunk.set((int) (id & (CHUNK - 1)), at[i]);
                }
            }
        }
    }

    /** Whether the fill of a store that opened with data still runs. */
    synchronized boolean filling() {
        return deletedWhileFilling != null;
    }

    /** Bytes of bodies written to the file since the store opened. */
    long bytes() {
        return end;
    }

    @Override
    public synchronized void close() {
        on = false;
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            LOG.warn("cannot close {}", path, e);
        }
    }

    private static boolean holds(byte[] key, byte[] value) {
        long id = id(key);
        return id >= 0 && id < MAX_ID && value.length > 0 && value.length < MAX_BODY;
    }

    private long entry(long id) {
        AtomicLongArray chunk = existingChunk(id);
        return chunk == null ? 0 : chunk.get((int) (id & (CHUNK - 1)));
    }

    /** The id's chunk, or null when it has none or the id is out of the table's range. */
    private AtomicLongArray existingChunk(long id) {
        return id >= 0 && id < MAX_ID ? chunks.get((int) (id >>> CHUNK_BITS)) : null;
    }

    /** The id's chunk, allocated if it has none and the bound allows (holding this). */
    private AtomicLongArray chunk(long id) {
        int c = (int) (id >>> CHUNK_BITS);
        AtomicLongArray chunk = chunks.get(c);
        if (chunk == null && allocated < MAX_CHUNKS) {
            chunk = new AtomicLongArray(CHUNK);
            allocated++;
            chunks.set(c, chunk);
        }
        return chunk;
    }

    private static long id(byte[] key) {
        long id = 0;
        for (int i = 1; i < 9; i++) {
            id = (id << 8) | (key[i] & 0xff);
        }
        return id;
    }

    /** Opens the file again when {@code closed} is still the channel and the store did not close it. */
    private synchronized void reopen(FileChannel closed) {
        if (channel != closed || !on || closed.isOpen()) {
            return;
        }
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException err) {
            off(err);
        }
    }

    private void off(IOException err) {
        if (on) {
            on = false;
            LOG.warn("{} failed: reads by id go to the view's files until the store opens again", path, err);
        }
    }
}
