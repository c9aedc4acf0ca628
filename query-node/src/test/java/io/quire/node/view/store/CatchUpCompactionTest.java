package io.quire.node.view.store;

import io.quire.node.view.apply.JournalTopology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * During a catch-up the view leaves level-0 files uncompacted (up to its catch-up trigger); once it
 * serves, RocksDB compacts them in the background, and every key reads the same throughout.
 */
class CatchUpCompactionTest {

    static final int FILES = 12; // past the serving trigger (8), under the catch-up one (32)

    @Test
    void aCatchUpLeavesLevelZeroFilesUncompactedUntilItIsDone() throws Exception {
        ViewStore store = open();
        try {
            store.catchUp().catchingUp(true);
            writeFiles(store);
            Thread.sleep(500); // a compaction, had one been started, would have had time to begin
            assertEquals(FILES, store.stats().filesAtLevel0());
            store.catchUp().catchingUp(false);
            awaitFewerThan(store, ViewRocks.L0_COMPACTION_TRIGGER);
            readAll(store);
        } finally {
            store.close();
        }
    }

    @Test
    void aCatchUpCompactsAgainOnceTooManyFilesPiledUp() throws Exception {
        ViewStore store = open();
        try {
            store.catchUp().catchingUp(true);
            writeFiles(store);
            assertFalse(store.catchUp().compactPast(FILES + 1), "under the bound");
            assertEquals(FILES, store.stats().filesAtLevel0());
            assertTrue(store.catchUp().compactPast(FILES));
            awaitFewerThan(store, ViewRocks.L0_COMPACTION_TRIGGER);
            assertFalse(store.catchUp().compactPast(0), "compacting already");
            readAll(store);
        } finally {
            store.close();
        }
    }

    /**
     * A store that opens with more level-0 files than the trigger, as one installed from a snapshot
     * taken right after a catch-up does, compacts nothing until the catch-up that opened it is done.
     * Opened with compactions on, RocksDB starts compacting them at once (the second half): pausing
     * them after the open would not stop that compaction.
     */
    @Test
    void aStoreOpenedForACatchUpStartsNoCompactionOfTheFilesItOpensWith() throws Exception {
        ViewStore paused = openStandalone(storeWithFiles(), true);
        try {
            Thread.sleep(500); // a compaction, had one been started, would have had time to begin
            assertEquals(FILES, paused.stats().filesAtLevel0());
            readAll(paused);
            paused.catchUp().catchingUp(false);
            awaitFewerThan(paused, ViewRocks.L0_COMPACTION_TRIGGER);
            readAll(paused);
        } finally {
            paused.close();
        }
        ViewStore unpaused = openStandalone(storeWithFiles(), false);
        try {
            awaitFewerThan(unpaused, ViewRocks.L0_COMPACTION_TRIGGER);
        } finally {
            unpaused.close();
        }
    }

    /** A state folder whose view store holds {@link #FILES} level-0 files, closed. */
    static Path storeWithFiles() throws Exception {
        Path dir = Files.createTempDirectory("quire-catch-up-compaction");
        ViewStore store = openStandalone(dir, true);
        writeFiles(store);
        store.close();
        return dir;
    }

    static ViewStore openStandalone(Path dir, boolean compactionsPaused) {
        ViewStore store = new ViewStore(JournalTopology.STORE, GroupCommit.EACH_RECORD, Tuning.DEFAULT);
        store.openStandalone(dir.toFile(), compactionsPaused);
        return store;
    }

    @Test
    void aServingViewCompactsPastItsTrigger() throws Exception {
        ViewStore store = open();
        try {
            writeFiles(store);
            awaitFewerThan(store, ViewRocks.L0_COMPACTION_TRIGGER);
            readAll(store);
        } finally {
            store.close();
        }
    }

    static ViewStore open() throws Exception {
        Path dir = Files.createTempDirectory("quire-catch-up-compaction");
        ViewStore store = new ViewStore(JournalTopology.STORE, GroupCommit.EACH_RECORD, Tuning.DEFAULT);
        store.init(GroupCommitTest.context(dir), store);
        return store;
    }

    static byte[] key(int file, int i) {
        return ByteBuffer.allocate(9).put((byte) 'F').putInt(i).putInt(file).array();
    }

    /** {@link #FILES} level-0 files of overlapping keys, one memtable flush each. */
    static void writeFiles(ViewStore store) throws Exception {
        for (int f = 0; f < FILES; f++) {
            for (int i = 0; i < 200; i++) {
                store.put(Bytes.wrap(key(f, i)), key(f, i));
            }
            store.flush();
            store.flushMemtables();
        }
    }

    static void readAll(ViewStore store) {
        for (int f = 0; f < FILES; f++) {
            for (int i = 0; i < 200; i++) {
                assertArrayEquals(key(f, i), store.get(Bytes.wrap(key(f, i))));
            }
        }
    }

    static void awaitFewerThan(ViewStore store, int files) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (store.stats().filesAtLevel0() >= files && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(store.stats().filesAtLevel0() < files, store.stats().filesAtLevel0() + " level-0 files left");
    }
}
