package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.Keys;
import io.quire.journal.view.RegistryView;
import io.quire.node.view.apply.JournalTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

class AbsentKeysTest {

    private static byte[] key(char kind, Random r) {
        byte[] k = new byte[1 + 8 + r.nextInt(60)];
        r.nextBytes(k);
        k[0] = (byte) kind;
        return k;
    }

    @Test
    void neverSaysAbsentOfAKeyItWasGivenAndRarelyOfOneItWasNot() {
        AbsentKeys filter = new AbsentKeys(4L << 20, (byte) 'F', (byte) 'S');
        Random r = new Random(3);
        List<byte[]> added = new ArrayList<>();
        for (int i = 0; i < 1_000_000; i++) {
            byte[] k = key(i % 2 == 0 ? 'F' : 'S', r);
            filter.add(k);
            added.add(k);
        }
        for (byte[] k : added) {
            assertTrue(filter.mayContain(k));
        }
        int falsePositives = 0;
        for (int i = 0; i < 100_000; i++) {
            falsePositives += filter.mayContain(key('F', r)) ? 1 : 0;
        }
        assertTrue(falsePositives < 3_000, falsePositives + " of 100,000 unknown keys may exist"); // 33 bits a key here
    }

    @Test
    void answersOnlyForItsKinds() {
        AbsentKeys filter = new AbsentKeys(1L << 16, (byte) 'F');
        Random r = new Random(5);
        assertFalse(filter.mayContain(key('F', r)));
        assertTrue(filter.mayContain(key('V', r)), "a kind it does not record may always exist");
        assertTrue(filter.mayContain(new byte[0]));
    }

    @Test
    void pastItsCapacityItStandsAside() {
        AbsentKeys filter = new AbsentKeys(64, (byte) 'F'); // one block: 51 keys
        Random r = new Random(9);
        for (int i = 0; i < 60; i++) {
            filter.add(key('F', r));
        }
        for (int i = 0; i < 1_000; i++) {
            assertTrue(filter.mayContain(key('F', r)));
        }
    }

    /** A store in {@code dir} writing groups of 50 commands. */
    private static ViewStore open(Path dir) {
        ViewStore store = new ViewStore(JournalTopology.STORE,
                new GroupCommit(50, Long.MAX_VALUE, Duration.ofHours(1)), Tuning.DEFAULT);
        store.init(GroupCommitTest.context(dir), store);
        return store;
    }

    /**
     * Through the store: keys found before and after their group is written to RocksDB, unknown
     * ones absent; a store reopened with data and without its saved filters (as after a crash),
     * which reads without filters until it has built them, finds them all the same.
     */
    @Test
    void theStoreFindsWhatItWroteWithTheFilterAndAfterReopening() throws Exception {
        Path dir = Files.createTempDirectory("quire-absent-keys");
        Random r = new Random(13);
        List<byte[]> written = new ArrayList<>();
        ViewStore store = open(dir);
        try {
            for (int i = 0; i < 1_000; i++) {
                byte[] k = key(i % 3 == 0 ? 'S' : 'F', r);
                store.put(Bytes.wrap(k), k);
                written.add(k);
                assertArrayEquals(k, store.get(Bytes.wrap(k)));
            }
            store.flush();
            for (byte[] k : written) {
                assertArrayEquals(k, store.get(Bytes.wrap(k)));
            }
            for (int i = 0; i < 1_000; i++) {
                assertNull(store.get(Bytes.wrap(key('F', r))));
            }
        } finally {
            store.close();
        }
        dropSavedFilters(dir);
        ViewStore reopened = open(dir);
        try {
            for (byte[] k : written) {
                assertArrayEquals(k, reopened.get(Bytes.wrap(k)));
            }
            byte[] late = key('F', r);
            reopened.put(Bytes.wrap(late), late);
            reopened.flush();
            assertArrayEquals(late, reopened.get(Bytes.wrap(late)));
        } finally {
            reopened.close();
        }
    }

    /**
     * One subject's uses of an id: found while pending and once written, in a store opened empty
     * (which answers pairs it never saw from its filter) and after reopening (no filter); a
     * use deleted while pending is hidden, and an id's uses by every subject are all found.
     */
    @Test
    void aSubjectsUsesOfAnIdAreFoundWithTheFilterAndWithout() throws Exception {
        Path dir = Files.createTempDirectory("quire-absent-usages");
        GroupCommit group = new GroupCommit(7, Long.MAX_VALUE, Duration.ofHours(1));
        StoreKv kv;
        ViewStore store = open(dir);
        try {
            kv = new StoreKv(store);
            for (int id = 1; id <= 200; id++) {
                for (int v = 1; v <= 2; v++) {
                    byte[] k = Keys.usage(SchemaId.of(id), Subject.of("s" + (id % 10)), Version.of(id * 10 + v));
                    store.put(Bytes.wrap(k), new byte[] {1});
                }
                assertEquals(List.of(Version.of(id * 10 + 1), Version.of(id * 10 + 2)),
                        new RegistryView(kv).usages().versionsWithId(Subject.of("s" + (id % 10)), SchemaId.of(id)), "pending or written");
            }
            store.delete(Bytes.wrap(Keys.usage(SchemaId.of(200), Subject.of("s0"), Version.of(2001))));
            assertUses(kv);
            store.flush();
            assertUses(kv);
        } finally {
            store.close();
        }
        dropSavedFilters(dir);
        ViewStore reopened = open(dir);
        try {
            assertUses(new StoreKv(reopened));
        } finally {
            reopened.close();
        }
    }

    private static void assertUses(StoreKv kv) {
        RegistryView view = new RegistryView(kv);
        for (int id = 1; id < 200; id++) {
            assertEquals(List.of(Version.of(id * 10 + 1), Version.of(id * 10 + 2)),
                    view.usages().versionsWithId(Subject.of("s" + (id % 10)), SchemaId.of(id)));
            assertEquals(List.of(), view.usages().versionsWithId(Subject.of("s" + ((id + 1) % 10)), SchemaId.of(id)));
            assertEquals(List.of(), view.usages().versionsWithId(Subject.of("s" + (id % 10) + "x"), SchemaId.of(id)));
            assertEquals(1, view.usages().usagesInEveryContext(SchemaId.of(id)).size() / 2);
        }
        assertEquals(List.of(Version.of(2002)), view.usages().versionsWithId(Subject.of("s0"), SchemaId.of(200)));
        assertEquals(List.of(), view.usages().versionsWithId(Subject.of("s0"), SchemaId.of(201)));
    }

    /**
     * A store that held data when opened builds its filters in the background while the applier
     * goes on writing: once they are in use, every key written before the reopen, during the
     * build and after it is found (point reads and a subject's uses of an id), and keys never
     * written are absent.
     */
    @Test
    void aStoreOpenedWithDataBuildsItsFiltersWhileWritesGoOn() throws Exception {
        Path dir = Files.createTempDirectory("quire-absent-build");
        Random r = new Random(21);
        List<byte[]> written = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        writeAndClose(dir, r, written, ids, 150_000);
        dropSavedFilters(dir); // as after a crash: the filters are built from the store's keys
        ViewStore reopened = open(dir);
        try {
            int during = 0;
            while (!reopened.filtersInUse()) { // the applier goes on while the builder reads
                writeSome(reopened, r, written, ids, 150_000 + during, 500);
                during += 500;
                assertTrue(during < 2_000_000, "the filters are never put to use");
            }
            writeSome(reopened, r, written, ids, 150_000 + during, 5_000);
            for (byte[] k : written) {
                assertArrayEquals(k, reopened.get(Bytes.wrap(k)));
            }
            StoreKv kv = new StoreKv(reopened);
            RegistryView view = new RegistryView(kv);
            for (int id : ids) {
                assertEquals(List.of(Version.of(id % 7 + 1)), view.usages().versionsWithId(Subject.of("u" + (id % 97)), SchemaId.of(id)),
                        "id " + id);
                assertEquals(List.of(), view.usages().versionsWithId(Subject.of("u" + (id % 97 + 1)), SchemaId.of(id)));
            }
            int absentFound = 0;
            for (int i = 0; i < 2_000; i++) {
                absentFound += reopened.get(Bytes.wrap(key('F', r))) == null ? 0 : 1;
            }
            assertEquals(0, absentFound);
            assertTrue(reopened.filtersInUse());
        } finally {
            reopened.close();
        }
    }

    /**
     * A checkpoint carries the store's filters. A store opened on a copy of it (a snapshot
     * installed) reads with them from its first read, deletes the file before it writes, and finds
     * every key; opened again, it reads the ones it saved when it closed, which hold the key it
     * wrote after the install, and without that file it builds them. A copy whose file was damaged
     * (the first filter's bits cleared, its checksum left) builds them too: read as they are, the
     * cleared bits would answer "absent" for every fingerprint and subject.
     */
    @Test
    void aStoreInstalledFromACheckpointReadsWithTheFiltersSavedInIt() throws Exception {
        Random r = new Random(31);
        List<byte[]> written = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        Path checkpoint = Files.createTempDirectory("quire-absent-checkpoint").resolve("view");
        ViewStore store = open(Files.createTempDirectory("quire-absent-source"));
        try {
            writeSome(store, r, written, ids, 0, 20_000);
            store.checkpoint(checkpoint);
            writeSome(store, r, new ArrayList<>(), new ArrayList<>(), 20_000, 1_000); // not in the checkpoint
        } finally {
            store.close();
        }
        assertTrue(Files.isRegularFile(checkpoint.resolve(FilterFile.NAME)));

        Path installed = install(checkpoint);
        Path file = savedFilters(installed);
        ViewStore fromSnapshot = open(installed);
        try {
            assertTrue(fromSnapshot.filtersInUse(), "in use from the open, without a build");
            assertFalse(Files.exists(file), "deleted when the store opened");
            assertFinds(fromSnapshot, written, ids, r);
            byte[] late = key('F', r);
            fromSnapshot.put(Bytes.wrap(late), late);
            fromSnapshot.flush();
            written.add(late);
            assertArrayEquals(late, fromSnapshot.get(Bytes.wrap(late)));
        } finally {
            fromSnapshot.close();
        }
        assertTrue(Files.isRegularFile(file), "saved when it closed");
        openAndFind(installed, true, written, ids, r);
        dropSavedFilters(installed);
        openAndFind(installed, false, written, ids, r);

        Path damaged = install(checkpoint);
        Path damagedFile = savedFilters(damaged);
        byte[] bytes = Files.readAllBytes(damagedFile);
        int header = 4 + 4 + 4 + 256 + 8 + 1; // magic, format; the first filter's blocks, kinds, count, saturation
        int words = (bytes.length - 16 - 2 * (header - 8)) / 2;
        java.util.Arrays.fill(bytes, header, header + words, (byte) 0);
        Files.write(damagedFile, bytes);
        ViewStore fromDamaged = open(damaged);
        try {
            assertFalse(Files.exists(damagedFile), "deleted when the store opened");
            assertFinds(fromDamaged, written.subList(0, written.size() - 1), ids, r);
            awaitFilters(fromDamaged);
            assertFinds(fromDamaged, written.subList(0, written.size() - 1), ids, r);
        } finally {
            fromDamaged.close();
        }
    }

    /**
     * A store saves its filters when it closes and reads them when it opens again: in use from
     * the open, the file deleted before any write, every key found (one written after the reopen
     * too, once closed and opened again: its filters were saved after it) and unknown keys absent.
     * No write is taken once they are saved. A copy of the folder taken while the store is open
     * (what a kill -9 leaves) holds no file, and the store opened on it builds its filters.
     */
    @Test
    void aStoreSavesItsFiltersWhenItClosesAndReadsThemWhenItOpensAgain() throws Exception {
        Path dir = Files.createTempDirectory("quire-absent-close");
        Path file = savedFilters(dir);
        Random r = new Random(41);
        List<byte[]> written = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        ViewStore store = writeAndClose(dir, r, written, ids, 20_000);
        assertTrue(Files.isRegularFile(file), "saved on close");
        byte[] refused = key('F', r);
        org.junit.jupiter.api.Assertions.assertThrows(org.apache.kafka.streams.errors.InvalidStateStoreException.class,
                () -> store.put(Bytes.wrap(refused), refused));

        Path crashed = Files.createTempDirectory("quire-absent-crashed");
        ViewStore reopened = open(dir);
        try {
            assertTrue(reopened.filtersInUse(), "in use from the open, without a build");
            assertFalse(Files.exists(file), "deleted when the store opened");
            assertFinds(reopened, written, ids, r);
            writeSome(reopened, r, written, ids, 20_000, 1_000);
            reopened.flush();
            copyFolder(dir, crashed);
        } finally {
            reopened.close();
        }
        openAndFind(dir, true, written, ids, r);
        assertFalse(Files.exists(savedFilters(crashed)));
        openAndFind(crashed, false, written, ids, r);
    }

    /**
     * Opens the store in {@code stateDir} with the filters it saved ({@code saved}: in use from the
     * open) or building them from its keys, finds every key and use, and closes it.
     */
    private static void openAndFind(Path stateDir, boolean saved, List<byte[]> written, List<Integer> ids, Random r)
            throws InterruptedException {
        ViewStore store = open(stateDir);
        try {
            if (saved) {
                assertTrue(store.filtersInUse(), "in use from the open, without a build");
            } else {
                awaitFilters(store);
            }
            assertFinds(store, written, ids, r);
        } finally {
            store.close();
        }
    }

    /** A store opened in {@code dir}, given {@code count} keys and uses ({@link #writeSome}) and closed; returned closed. */
    private static ViewStore writeAndClose(Path dir, Random r, List<byte[]> written, List<Integer> ids, int count)
            throws Exception {
        ViewStore store = open(dir);
        try {
            writeSome(store, r, written, ids, 0, count);
            store.flush();
        } finally {
            store.close();
        }
        return store;
    }

    /** The file of the filters a store in {@code stateDir} saved. */
    private static Path savedFilters(Path stateDir) {
        return stateDir.resolve("quire").resolve(JournalTopology.STORE).resolve(FilterFile.NAME);
    }

    /** Deletes the filters a store saved when it closed, as a crash leaves none. */
    private static void dropSavedFilters(Path stateDir) throws Exception {
        assertTrue(Files.deleteIfExists(savedFilters(stateDir)));
    }

    /** A copy of {@code from}'s files into {@code to}. */
    private static void copyFolder(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** A state folder holding a copy of {@code checkpoint} as the view store's folder. */
    private static Path install(Path checkpoint) throws Exception {
        Path stateDir = Files.createTempDirectory("quire-absent-installed");
        Path store = stateDir.resolve("quire").resolve(JournalTopology.STORE);
        Files.createDirectories(store);
        try (var files = Files.list(checkpoint)) {
            for (Path f : files.toList()) {
                Files.copy(f, store.resolve(f.getFileName()));
            }
        }
        return stateDir;
    }

    private static void awaitFilters(ViewStore store) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!store.filtersInUse() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(store.filtersInUse(), "the filters are never built");
    }

    /** Every key in {@code written} and every use in {@code ids} found; keys never written absent. */
    private static void assertFinds(ViewStore store, List<byte[]> written, List<Integer> ids, Random r) {
        for (byte[] k : written) {
            assertArrayEquals(k, store.get(Bytes.wrap(k)));
        }
        RegistryView view = new RegistryView(new StoreKv(store));
        for (int id : ids) {
            assertEquals(List.of(Version.of(id % 7 + 1)), view.usages().versionsWithId(Subject.of("u" + (id % 97)), SchemaId.of(id)),
                    "id " + id);
        }
        for (int i = 0; i < 1_000; i++) {
            assertNull(store.get(Bytes.wrap(key('F', r))));
        }
    }

    /** {@code n} fingerprints and subjects, and a use of each of {@code n / 10} ids from {@code firstId}. */
    private static void writeSome(ViewStore store, Random r, List<byte[]> written, List<Integer> ids, int firstId, int n) {
        for (int i = 0; i < n; i++) {
            byte[] k = key(i % 3 == 0 ? 'S' : 'F', r);
            store.put(Bytes.wrap(k), k);
            written.add(k);
            if (i % 10 == 0) {
                int id = firstId + i;
                store.put(Bytes.wrap(Keys.usage(SchemaId.of(id), Subject.of("u" + (id % 97)), Version.of(id % 7 + 1))),
                        new byte[] {1});
                ids.add(id);
            }
        }
    }
}
