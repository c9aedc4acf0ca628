package io.quire.node.view.store;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.rocksdb.RocksIterator;

/**
 * The view store's iterators: RocksDB's files in key order, the pending layer's entries alone, and
 * the two merged (pending values win, pending deletes hide). Each keeps its next entry ready.
 */
final class StoreIterators {

    private StoreIterators() {
    }

    /** Pending entries alone, in key order (their deletes hidden). */
    static final class Listed extends Ahead {

        private final Iterator<Map.Entry<Bytes, byte[]>> layer;

        Listed(Iterator<Map.Entry<Bytes, byte[]>> layer) {
            this.layer = layer;
            advance();
        }

        @Override
        void advance() {
            next = null;
            while (next == null && layer.hasNext()) {
                Map.Entry<Bytes, byte[]> p = layer.next();
                if (p.getValue() != PendingLayer.TOMBSTONE) {
                    next = KeyValue.pair(p.getKey(), p.getValue());
                }
            }
        }

        @Override
        public void close() {
            next = null;
        }
    }

    /** Pending entries over written ones, in key order. */
    static final class Merged extends Ahead {

        private final Iterator<Map.Entry<Bytes, byte[]>> layer;
        private final Iter written;
        private Map.Entry<Bytes, byte[]> nextPending;

        Merged(Iterator<Map.Entry<Bytes, byte[]>> layer, Iter written) {
            this.layer = layer;
            this.written = written;
            nextPending = pendingAfter();
            advance();
        }

        private Map.Entry<Bytes, byte[]> pendingAfter() {
            return layer.hasNext() ? layer.next() : null;
        }

        @Override
        void advance() {
            next = null;
            while (next == null && (nextPending != null || written.hasNext())) {
                int c = nextPending == null ? 1 : !written.hasNext() ? -1
                        : Arrays.compareUnsigned(nextPending.getKey().get(), written.peekNextKey().get());
                if (c > 0) {
                    next = written.next();
                    continue;
                }
                if (c == 0) {
                    written.next(); // the pending value replaces (or deletes) the written one
                }
                Map.Entry<Bytes, byte[]> p = nextPending;
                nextPending = pendingAfter();
                if (p.getValue() != PendingLayer.TOMBSTONE) {
                    next = KeyValue.pair(p.getKey(), p.getValue());
                }
            }
        }

        @Override
        public void close() {
            next = null;
            nextPending = null;
            written.close();
        }
    }

    /** Ascending iteration over a consistent snapshot (RocksDB iterators pin one when created). */
    static final class Iter extends Ahead {

        private final RocksIterator it;
        private final byte[] toInclusive;
        private final byte[] prefix;
        private final Runnable onClose;
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

        @Override
        void advance() {
            next = null;
            if (closed || !it.isValid()) {
                return;
            }
            byte[] k = it.key();
            if (!KeyRange.inRange(k, toInclusive, prefix)) {
                return;
            }
            next = KeyValue.pair(Bytes.wrap(k), it.value());
            it.next();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                next = null;
                it.close();
                onClose.run();
            }
        }
    }

    /** An iterator that keeps its next entry ready: {@code advance} sets {@code next}, or null at the end. */
    abstract static class Ahead implements KeyValueIterator<Bytes, byte[]> {

        KeyValue<Bytes, byte[]> next;

        abstract void advance();

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> current = next;
            advance();
            return current;
        }

        @Override
        public Bytes peekNextKey() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            return next.key;
        }
    }
}
