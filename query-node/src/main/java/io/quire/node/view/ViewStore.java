package io.quire.node.view;

import io.quire.journal.view.Keys;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The view's RocksDB store. Unlike Kafka Streams' built-in RocksDB store it keeps RocksDB's
 * write-ahead log on, so each applied command (its changes, outcome and position, written as one
 * batch) survives {@code kill -9}; and it tells Streams where to resume from its own stored
 * position rather than from a checkpoint kept elsewhere, so the resume point can never run ahead
 * of the data. See docs/adr/0001-view-store.md.
 */
public final class ViewStore implements KeyValueStore<Bytes, byte[]> {

    static {
        RocksDB.loadLibrary();
    }

    private final String name;
    private RocksDB db;
    private Options options;
    private WriteOptions writeOptions;
    private LRUCache cache;
    private volatile boolean open;

    ViewStore(String name) {
        this.name = name;
    }

    /** Supplies this store to {@code Stores.keyValueStoreBuilder}, telling {@code created} about each instance. */
    static KeyValueBytesStoreSupplier supplier(String name, java.util.function.Consumer<ViewStore> created) {
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                ViewStore store = new ViewStore(name);
                created.accept(store);
                return store;
            }

            @Override
            public String metricsScope() {
                return "quire-view";
            }
        };
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        File dir = new File(new File(context.stateDir(), "quire"), name);
        try {
            Files.createDirectories(dir.toPath());
            cache = new LRUCache(64L << 20);
            // Whole-key bloom filters in the memtable as well as in the files: most lookups of the
            // applier are for keys that do not exist yet (a new fingerprint, subject or id).
            options = new Options().setCreateIfMissing(true)
                    .setMemtablePrefixBloomSizeRatio(0.1).setMemtableWholeKeyFiltering(true)
                    .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache)
                            .setFilterPolicy(new BloomFilter(10)));
            writeOptions = new WriteOptions(); // write-ahead log on; no fsync per write (kill -9 safe)
            db = RocksDB.open(options, dir.getAbsolutePath());
        } catch (Exception e) {
            throw new ProcessorStateException("cannot open the view store at " + dir, e);
        }
        context.register(root, (key, value) -> {
            throw new IllegalStateException("the view is rebuilt by re-applying the journal, never by raw restore");
        });
        open = true;
    }

    @Override
    public boolean managesOffsets() {
        return true;
    }

    /** The last journal offset applied, from the position stored with the data itself. */
    @Override
    public Long committedOffset(TopicPartition partition) {
        byte[] position = getBytes(Keys.POSITION);
        if (position == null) {
            return null;
        }
        long offset = ByteBuffer.wrap(position).getLong();
        return offset < 0 ? null : offset;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        // The position is written in the same batch as the changes it covers; nothing to add here.
        flush();
    }

    @Override
    public void flush() {
        if (!open) {
            return;
        }
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("flushing the view's write-ahead log failed", e);
        }
    }

    /** Flushes memtables to files, for a consistent on-disk copy (snapshots, clean shutdown). */
    void flushMemtables() throws RocksDBException {
        try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f);
        }
    }

    /**
     * A consistent RocksDB checkpoint of the view into {@code target} (which must not exist): files
     * hard-linked where the file system allows, the memtable flushed first. The position is inside
     * the checkpoint, so it says itself which journal offset it covers.
     */
    public void checkpoint(java.nio.file.Path target) throws RocksDBException {
        enter();
        try (org.rocksdb.Checkpoint c = org.rocksdb.Checkpoint.create(db)) {
            c.createCheckpoint(target.toAbsolutePath().toString());
        } finally {
            leave();
        }
    }

    /**
     * Reads and open iterators in progress. A read counts itself in, then checks {@code open}; close
     * clears {@code open}, then waits for the count to drain before it frees the native handles:
     * no read ever touches a closed RocksDB (it gets an {@link InvalidStateStoreException} instead).
     */
    private final AtomicInteger inFlight = new AtomicInteger();

    private void enter() {
        inFlight.incrementAndGet();
        if (!open) {
            inFlight.decrementAndGet();
            throw new InvalidStateStoreException("the view store is closed");
        }
    }

    private void leave() {
        inFlight.decrementAndGet();
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        try {
            flushMemtables();
        } catch (RocksDBException e) {
            // the write-ahead log still holds everything
        }
        db.close();
        writeOptions.close();
        options.close();
        cache.close();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public byte[] get(Bytes key) {
        return getBytes(key.get());
    }

    private byte[] getBytes(byte[] key) {
        enter();
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("view read failed", e);
        } finally {
            leave();
        }
    }

    @Override
    public void put(Bytes key, byte[] value) {
        putAll(List.of(KeyValue.pair(key, value)));
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] old = get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    /** One atomic, logged RocksDB batch: a command's changes land all together or not at all. */
    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        try (WriteBatch batch = new WriteBatch()) {
            for (KeyValue<Bytes, byte[]> e : entries) {
                if (e.value == null) {
                    batch.delete(e.key.get());
                } else {
                    batch.put(e.key.get(), e.value);
                }
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("view write failed", e);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        byte[] old = get(key);
        putAll(List.of(KeyValue.pair(key, null)));
        return old;
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return iterator(from == null ? null : from.get(), to == null ? null : to.get(), null);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(null, null, null);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
        byte[] p = serializer.serialize(null, prefix);
        return iterator(p, null, p);
    }

    /** An iterator counts as a read in progress until it is closed. */
    private KeyValueIterator<Bytes, byte[]> iterator(byte[] from, byte[] toInclusive, byte[] prefix) {
        enter();
        try {
            return new Iter(db.newIterator(), from, toInclusive, prefix, this::leave);
        } catch (RuntimeException e) {
            leave();
            throw e;
        }
    }

    @Override
    public long approximateNumEntries() {
        try {
            return db.getLongProperty("rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            return -1;
        }
    }

    /** Ascending iteration over a consistent snapshot (RocksDB iterators pin one when created). */
    private static final class Iter implements KeyValueIterator<Bytes, byte[]> {

        private final RocksIterator it;
        private final byte[] toInclusive;
        private final byte[] prefix;
        private final Runnable onClose;
        private KeyValue<Bytes, byte[]> next;
        private boolean closed;

        Iter(RocksIterator it, byte[] from, byte[] toInclusive, byte[] prefix, Runnable onClose) {
            this.it = it;
            this.onClose = onClose;
            this.toInclusive = toInclusive;
            this.prefix = prefix;
            if (from == null) {
                it.seekToFirst();
            } else {
                it.seek(from);
            }
            advance();
        }

        private void advance() {
            next = null;
            if (!it.isValid()) {
                return;
            }
            byte[] k = it.key();
            if (toInclusive != null && Arrays.compareUnsigned(k, toInclusive) > 0) {
                return;
            }
            if (prefix != null && (k.length < prefix.length
                    || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length))) {
                return;
            }
            next = KeyValue.pair(Bytes.wrap(k), it.value());
            it.next();
        }

        @Override
        public boolean hasNext() {
            return !closed && next != null;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> current = next;
            advance();
            return current;
        }

        @Override
        public Bytes peekNextKey() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return next.key;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                it.close();
                onClose.run();
            }
        }
    }
}
