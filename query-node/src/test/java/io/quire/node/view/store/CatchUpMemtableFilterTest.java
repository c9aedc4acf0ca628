package io.quire.node.view.store;

import io.quire.node.view.apply.CatchUp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * A catch-up's memtables are written without a filter of their keys; the memtables after it,
 * which serving writes to, have one, as the memtables of a store opened to serve do.
 */
class CatchUpMemtableFilterTest {

    @Test
    void aCatchUpWritesMemtablesWithoutAFilterAndTheMemtablesAfterItHaveOne() throws Exception {
        ViewStore serving = open(false);
        try {
            write(serving, 0, 100);
            assertTrue(serving.stats().memtableFilterAnswers(key(-1)), "a store opened to serve");
        } finally {
            serving.close();
        }
        ViewStore store = open(true);
        try {
            store.catchUp().unlogged(true);
            write(store, 0, 1_000);
            assertFalse(store.stats().memtableFilterAnswers(key(-1)), "the catch-up's memtable");
            store.catchUp().unlogged(false); // writes the pending group, then flushes the catch-up's memtables
            store.catchUp().catchingUp(false);
            write(store, 1_000, 1_100);
            assertTrue(store.stats().memtableFilterAnswers(key(-1)), "the memtable after the catch-up");
            for (int i = 0; i < 1_100; i++) {
                assertArrayEquals(key(i), store.get(Bytes.wrap(key(i))));
            }
            assertNull(store.get(Bytes.wrap(key(-1))));
        } finally {
            store.close();
        }
    }

    /** A catch-up of a tail too short to run still leaves the memtables that follow with a filter. */
    @Test
    void aCatchUpThatWroteNothingTurnsTheFilterOnForTheMemtablesThatFollow() throws Exception {
        ViewStore store = open(true);
        try {
            store.catchUp().catchingUp(false);
            store.catchUp().memtableFilters(); // what CatchUp.run does when the tail is too short
            write(store, 0, 100);
            store.flushMemtables();
            write(store, 100, 200);
            assertTrue(store.stats().memtableFilterAnswers(key(-1)));
        } finally {
            store.close();
        }
    }

    static ViewStore open(boolean forCatchUp) throws Exception {
        return CatchUpCompactionTest.openStandalone(Files.createTempDirectory("quire-memtable-filter"), forCatchUp);
    }

    /** Keys {@code from} to {@code to}, written to RocksDB's active memtable. */
    static void write(ViewStore store, int from, int to) {
        for (int i = from; i < to; i++) {
            store.put(Bytes.wrap(key(i)), key(i));
        }
        store.flush(); // the pending group, into RocksDB
    }

    /** Keys of a kind no filter of absent keys covers. */
    static byte[] key(int i) {
        return ByteBuffer.allocate(5).put((byte) 'C').putInt(i).array();
    }
}
