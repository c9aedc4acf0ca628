package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Compactions cut their output files where a key's kind (its first byte) changes, as a registration's
 * keys of several kinds go to one memtable: a file below level 0 holds one kind, so that the files
 * of kinds written in key order (audit entries by offset) do not overlap the files of the kinds
 * written at random (fingerprints) in the level below.
 */
class FilesByKindTest {

    @Test
    void filesBelowLevelZeroHoldOneKindEach() throws Exception {
        ViewStore store = CatchUpCompactionTest.open();
        try {
            Random random = new Random(3);
            long offset = 0;
            for (int flush = 0; flush < 4; flush++) {
                for (int i = 0; i < 500; i++, offset++) {
                    byte[] audit = ByteBuffer.allocate(9).put((byte) 'A').putLong(offset).array();
                    byte[] fingerprint = new byte[34];
                    random.nextBytes(fingerprint);
                    fingerprint[0] = 'F';
                    store.put(Bytes.wrap(audit), audit);
                    store.put(Bytes.wrap(fingerprint), fingerprint);
                }
                store.flush();
                store.flushMemtables();
            }
            List<int[]> before = store.stats().fileKinds();
            assertTrue(before.stream().anyMatch(f -> f[0] == 0 && f[1] != f[2]), "a flush writes both kinds to one file");
            store.compactAll();
            List<int[]> after = store.stats().fileKinds();
            assertTrue(after.stream().noneMatch(f -> f[0] == 0), "everything compacted below level 0");
            for (int[] f : after) {
                assertEquals(f[1], f[2], "a file at level " + f[0] + " holds keys of kinds " + (char) f[1]
                        + " to " + (char) f[2]);
            }
            assertEquals(2, after.size(), "one file per kind");
            for (long o = 0; o < offset; o++) {
                byte[] audit = ByteBuffer.allocate(9).put((byte) 'A').putLong(o).array();
                assertArrayEquals(audit, store.get(Bytes.wrap(audit)));
            }
        } finally {
            store.close();
        }
    }
}
