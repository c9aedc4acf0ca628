package io.quire.node.view.store;

import io.quire.node.view.apply.JournalTopology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.journal.view.Keys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A catch-up writes its groups without RocksDB's write-ahead log. What a kill -9 leaves is the
 * store's files as the OS holds them, so a copy of the folder taken while the store is open is
 * that crash: reopened, it must hold a prefix of the groups with the position of its last one,
 * never a later position over missing keys.
 */
class UnloggedCatchUpTest {

    private final List<ViewStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(ViewStore::close);
    }

    @Test
    void aCrashDuringTheCatchUpReopensAtTheLastLoggedPositionWithItsKeysOnly() throws Exception {
        Path dir = Files.createTempDirectory("quire-unlogged");
        ViewStore store = open(dir);
        group(store, 1, 0, 100); // logged, as Streams writes
        store.catchUp().unlogged(true);
        group(store, 2, 100, 200);
        group(store, 3, 200, 300);

        ViewStore crashed = open(crashImage(dir));
        assertEquals(1L, crashed.committedOffset(null), "the unlogged groups are lost with the memtable");
        assertKeys(crashed, 0, 100);
        assertNull(crashed.get(Bytes.wrap(key(100))));
    }

    @Test
    void endingTheCatchUpFlushesItsGroupsBeforeAnyLoggedWrite() throws Exception {
        Path dir = Files.createTempDirectory("quire-unlogged");
        ViewStore store = open(dir);
        group(store, 1, 0, 100);
        store.catchUp().unlogged(true);
        group(store, 2, 100, 200);
        store.catchUp().unlogged(false);
        group(store, 3, 200, 300); // logged again: Streams goes on

        ViewStore crashed = open(crashImage(dir));
        assertEquals(3L, crashed.committedOffset(null));
        assertKeys(crashed, 0, 300); // without the flush the log would replay group 3 over a view missing group 2
    }

    @Test
    void aFlushDuringTheCatchUpKeepsEveryGroupBeforeIt() throws Exception {
        Path dir = Files.createTempDirectory("quire-unlogged");
        ViewStore store = open(dir);
        store.catchUp().unlogged(true);
        group(store, 1, 0, 100);
        store.flushMemtables(); // what RocksDB does when a memtable fills
        group(store, 2, 100, 200);

        ViewStore crashed = open(crashImage(dir));
        assertEquals(1L, crashed.committedOffset(null));
        assertKeys(crashed, 0, 100);
        assertNull(crashed.get(Bytes.wrap(key(150))));
    }

    private ViewStore open(Path dir) {
        ViewStore store = new ViewStore(JournalTopology.STORE, GroupCommit.DEFAULT, Tuning.DEFAULT);
        store.init(GroupCommitTest.context(dir), store);
        stores.add(store);
        return store;
    }

    /** Keys {@code from..to-1} and the position {@code offset}, written as one group. */
    private static void group(ViewStore store, long offset, int from, int to) {
        for (int i = from; i < to; i++) {
            store.put(Bytes.wrap(key(i)), key(i));
        }
        store.put(Bytes.wrap(Keys.POSITION), ByteBuffer.allocate(8).putLong(offset).array());
        store.commit(Map.of());
    }

    private static void assertKeys(ViewStore store, int from, int to) {
        for (int i = from; i < to; i++) {
            assertArrayEquals(key(i), store.get(Bytes.wrap(key(i))), "key " + i);
        }
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(5).put((byte) 'T').putInt(i).array();
    }

    /** The folder's files as they are now, as a kill -9 would leave them. */
    private static Path crashImage(Path dir) throws IOException {
        Path copy = Files.createTempDirectory("quire-unlogged-crash");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = copy.resolve(dir.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("LOCK")) {
                    Files.copy(p, target);
                }
            }
        }
        return copy;
    }
}
