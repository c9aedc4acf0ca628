package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The bottom level of the view has no Bloom filter, and a read does not look for one there: a
 * read that reaches it is nearly always for a key that is there. The levels above keep theirs.
 */
class BottomLevelFilterTest {

    @Test
    void readsAskTheFiltersOfLevelZeroButNotOfTheBottomLevel() throws Exception {
        ViewStore store = CatchUpCompactionTest.openStandalone(Files.createTempDirectory("quire-bottom-filter"), false);
        try {
            // Two level-0 files: the older one is the last file of the last level holding data,
            // so RocksDB treats it as the bottom; the newer one's filter is asked.
            CatchUpMemtableFilterTest.write(store, 0, 1_000);
            store.flushMemtables();
            CatchUpMemtableFilterTest.write(store, 1_000, 2_000);
            store.flushMemtables();
            assertTrue(store.stats().fileFiltersAsked(CatchUpMemtableFilterTest.key(1_500)) > 0, "the newer level-0 file's filter");

            store.compactAll(); // every key into the bottom level
            assertTrue(store.stats().fileKinds().stream().allMatch(f -> f[0] > 0), "nothing left in level 0");
            assertEquals(0, store.stats().fileFiltersAsked(CatchUpMemtableFilterTest.key(7)), "a key there");
            assertEquals(0, store.stats().fileFiltersAsked(CatchUpMemtableFilterTest.key(-1)), "a key not there");

            CatchUpMemtableFilterTest.write(store, 2_000, 2_100);
            store.flushMemtables();
            assertTrue(store.stats().fileFiltersAsked(CatchUpMemtableFilterTest.key(2_050)) > 0, "a level-0 file above the bottom");
            for (int i = 0; i < 2_100; i += 97) {
                assertArrayEquals(CatchUpMemtableFilterTest.key(i), store.get(Bytes.wrap(CatchUpMemtableFilterTest.key(i))));
            }
            assertNull(store.get(Bytes.wrap(CatchUpMemtableFilterTest.key(-1))));
            assertNull(store.get(Bytes.wrap(CatchUpMemtableFilterTest.key(5_000))));
        } finally {
            store.close();
        }
    }
}
