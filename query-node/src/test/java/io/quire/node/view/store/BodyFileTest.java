package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bodies by id read from the file beside the view ({@link BodyFile}) answer what a map of the same
 * writes answers: through puts, deletes and puts again, group writes, readers running while the
 * writer writes, a reopen (the file starts empty and is filled from RocksDB while ids are deleted
 * and put again), and a file that went bad under the store (reads fall back to RocksDB).
 */
class BodyFileTest {

    /** Ids from a small range (so they repeat), around a chunk's edge, and past the file's bound. */
    private static final List<Long> IDS = List.of(1L, 2L, 3L, 4095L, 4096L, 4097L, 100_000L, BodyFile.MAX_ID - 1,
            BodyFile.MAX_ID, BodyFile.MAX_ID + 5, -2L);

    private static byte[] key(long id) {
        return ByteBuffer.allocate(9).put((byte) 'I').putLong(id).array();
    }

    private static void readsAgree(ViewStore store, Map<Long, byte[]> model, String when) {
        for (long id : IDS) {
            assertArrayEquals(model.get(id), store.get(Bytes.wrap(key(id))), when + ": id " + id);
        }
    }

    private static void write(ViewStore store, Map<Long, byte[]> model, Random r, int n) {
        for (int i = 0; i < n; i++) {
            long id = IDS.get(r.nextInt(IDS.size()));
            if (r.nextInt(4) == 0) {
                store.delete(Bytes.wrap(key(id)));
                model.remove(id);
            } else {
                byte[] body = ("{\"schema\":\"" + id + "/" + i + "/" + "x".repeat(r.nextInt(300)) + "\"}").getBytes();
                store.put(Bytes.wrap(key(id)), body);
                model.put(id, body);
            }
            if (r.nextInt(13) == 0) {
                store.flush();
            }
        }
    }

    @Test
    void readsByIdAnswerAsAMapThroughPutsDeletesGroupsAndAReopen(@TempDir Path dir) throws Exception {
        Random r = new Random(7);
        Map<Long, byte[]> model = new HashMap<>();
        ViewStore store = PointReadTest.open(dir);
        BodyFile bodies = store.groups.bodies();
        for (int round = 0; round < 40; round++) {
            write(store, model, r, 50);
            readsAgree(store, model, "round " + round + " before its flush");
            store.flush();
            readsAgree(store, model, "round " + round);
        }
        assertTrue(bodies.bytes() > 0, "the bodies written went to the file");
        // the file holds every id below the bound that is there, and none of the others
        for (long id : IDS) {
            byte[] held = bodies.read(key(id));
            if (id >= 0 && id < BodyFile.MAX_ID) {
                assertArrayEquals(model.get(id), held, "the file's body of id " + id);
            } else {
                assertNull(held, "id " + id + " is past the file's bound");
            }
        }
        store.close();

        ViewStore again = PointReadTest.open(dir);
        awaitFill(again);
        for (long id : IDS) { // emptied at the open, then filled from RocksDB
            if (id >= 0 && id < BodyFile.MAX_ID) {
                assertArrayEquals(model.get(id), again.groups.bodies().read(key(id)), "after a reopen, id " + id);
            }
        }
        readsAgree(again, model, "after a reopen");
        write(again, model, r, 200);
        again.flush();
        readsAgree(again, model, "after a reopen and more writes");
        again.close();
    }

    @Test
    void aBodyTakesItsSlotOnItsSecondReadAndLeavesItWhenItsIdIsWrittenAgain(@TempDir Path dir) throws Exception {
        ViewStore store = PointReadTest.open(dir);
        BodyFile bodies = store.groups.bodies();
        store.put(Bytes.wrap(key(5)), "{\"v\":1}".getBytes());
        store.flush();
        assertArrayEquals("{\"v\":1}".getBytes(), bodies.read(key(5)));
        assertFalse(bodies.inSlot(5), "one read: the slot stays as it was");
        assertArrayEquals("{\"v\":1}".getBytes(), bodies.read(key(5)));
        assertTrue(bodies.inSlot(5), "the second read in a row keeps it");
        bodies.read(key(5 + BodyFile.CACHE_SLOTS)); // an id of the same slot, not in the file: no read at all
        assertTrue(bodies.inSlot(5));
        store.put(Bytes.wrap(key(5)), "{\"v\":2}".getBytes());
        store.flush();
        assertFalse(bodies.inSlot(5), "a new entry for the id: its old slot is not used");
        assertArrayEquals("{\"v\":2}".getBytes(), bodies.read(key(5)));
        assertArrayEquals("{\"v\":2}".getBytes(), bodies.read(key(5)));
        assertTrue(bodies.inSlot(5));
        store.close();
    }

    private static void awaitFill(ViewStore store) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (store.groups.bodies().filling()) {
            assertTrue(System.nanoTime() < deadline, "the fill ends");
            Thread.sleep(5);
        }
    }

    @Test
    void aStoreOpenedWithDataFillsTheFileWhileItsIdsAreDeletedAndPutAgain(@TempDir Path dir) throws Exception {
        int ids = 60_000;
        Map<Long, byte[]> model = new HashMap<>();
        ViewStore store = PointReadTest.open(dir);
        for (long id = 1; id <= ids; id++) {
            byte[] body = ("{\"id\":" + id + "}").getBytes();
            store.put(Bytes.wrap(key(id)), body);
            model.put(id, body);
        }
        store.close();
        for (int round = 0; round < 3; round++) {
            ViewStore again = PointReadTest.open(dir);
            Random r = new Random(round);
            for (int i = 0; i < 3_000; i++) { // while the fill runs: deletes, and bodies put again
                long id = 1 + r.nextInt(ids);
                if (r.nextBoolean()) {
                    again.delete(Bytes.wrap(key(id)));
                    model.remove(id);
                } else {
                    byte[] body = ("{\"id\":" + id + ",\"round\":" + round + "}").getBytes();
                    again.put(Bytes.wrap(key(id)), body);
                    model.put(id, body);
                }
                if (i % 100 == 0) {
                    again.flush();
                }
            }
            again.flush();
            awaitFill(again);
            for (long id = 1; id <= ids; id++) {
                byte[] want = model.get(id);
                assertArrayEquals(want, again.get(Bytes.wrap(key(id))), "round " + round + ", id " + id);
                assertArrayEquals(want, again.groups.bodies().read(key(id)), "round " + round + ", the file's id " + id);
            }
            again.close();
        }
    }

    @Test
    void readersWhileTheWriterWritesSeeEachIdsBodyOrNothing(@TempDir Path dir) throws Exception {
        ViewStore store = PointReadTest.open(dir);
        int ids = 20_000;
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            Random r = new Random(3);
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    long id = 1 + r.nextInt(ids);
                    byte[] body = store.get(Bytes.wrap(key(id)));
                    if (body != null && !new String(body).equals("{\"id\":" + id + "}")) {
                        throw new AssertionError("id " + id + " read " + new String(body));
                    }
                }
            } catch (Throwable t) {
                failed.compareAndSet(null, t);
            }
        });
        reader.start();
        for (long id = 1; id <= ids; id++) {
            store.put(Bytes.wrap(key(id)), ("{\"id\":" + id + "}").getBytes());
            if (id % 500 == 0) {
                store.flush();
            }
        }
        store.flush();
        reader.interrupt();
        reader.join();
        if (failed.get() != null) {
            throw new AssertionError(failed.get());
        }
        for (long id = 1; id <= ids; id++) {
            assertArrayEquals(("{\"id\":" + id + "}").getBytes(), store.groups.bodies().read(key(id)));
        }
        // a thread whose interrupt is set reads RocksDB (for an id not in a slot: a slot needs no
        // read of the file), and leaves the file open for the others
        long cold = 1;
        while (store.groups.bodies().inSlot(cold)) {
            cold++;
        }
        byte[] coldBody = ("{\"id\":" + cold + "}").getBytes();
        Thread.currentThread().interrupt();
        try {
            assertArrayEquals(coldBody, store.get(Bytes.wrap(key(cold))));
            assertNull(store.groups.bodies().read(key(cold)));
        } finally {
            Thread.interrupted();
        }
        assertArrayEquals(coldBody, store.groups.bodies().read(key(cold)));
        store.close();
    }

    @Test
    void aFileCutShortUnderTheStoreTurnsItselfOffAndRocksDbAnswers(@TempDir Path dir) throws Exception {
        ViewStore store = PointReadTest.open(dir);
        Map<Long, byte[]> model = new HashMap<>();
        write(store, model, new Random(5), 300);
        store.flush();
        Path file;
        try (var files = Files.walk(dir)) {
            file = files.filter(p -> p.getFileName().toString().equals(BodyFile.NAME)).findFirst().orElseThrow();
        }
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.truncate(0);
        }
        readsAgree(store, model, "after the file was cut");
        write(store, model, new Random(6), 100);
        store.flush();
        readsAgree(store, model, "after more writes");
        store.close();
    }
}
