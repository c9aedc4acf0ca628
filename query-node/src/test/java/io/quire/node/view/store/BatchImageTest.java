package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

class BatchImageTest {

    static {
        RocksDB.loadLibrary();
    }

    /** Keys and values of every length class of a varint32 (1, 2 and 3 bytes), deletes among them. */
    private static List<byte[][]> entries(long seed) {
        Random random = new Random(seed);
        List<byte[][]> out = new ArrayList<>();
        int[] lengths = {0, 1, 127, 128, 300, 16_383, 16_384, 70_000};
        for (int i = 0; i < 200; i++) {
            byte[] key = new byte[1 + random.nextInt(i % 10 == 0 ? 200 : 40)];
            random.nextBytes(key);
            key[0] = (byte) i; // distinct keys
            byte[] value = i % 7 == 3 ? null : new byte[lengths[random.nextInt(lengths.length)]];
            if (value != null) {
                random.nextBytes(value);
            }
            out.add(new byte[][] {key, value});
        }
        return out;
    }

    private static byte[] of(List<byte[][]> entries) {
        byte[][] keys = new byte[entries.size()][];
        byte[][] values = new byte[entries.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = entries.get(i)[0];
            values[i] = entries.get(i)[1];
        }
        return BatchImage.of(keys, values);
    }

    @Test
    void isByteForByteWhatRocksJavaBuildsEntryByEntry() throws Exception {
        List<byte[][]> entries = entries(7);
        byte[] image = of(entries);
        try (WriteBatch expected = new WriteBatch()) {
            for (byte[][] e : entries) {
                if (e[1] == null) {
                    expected.delete(e[0]);
                } else {
                    expected.put(e[0], e[1]);
                }
            }
            assertArrayEquals(expected.data(), image);
            try (WriteBatch parsed = new WriteBatch(image)) {
                assertEquals(entries.size(), parsed.count());
            }
        }
    }

    @Test
    void anEmptyGroupIsAnEmptyBatch() throws Exception {
        try (WriteBatch expected = new WriteBatch()) {
            assertArrayEquals(expected.data(), of(List.of()));
        }
    }

    @Test
    void writtenThroughRocksDbItPutsAndDeletes(@TempDir Path dir) throws Exception {
        List<byte[][]> entries = entries(11);
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(o, dir.toString());
             WriteOptions w = new WriteOptions()) {
            for (byte[][] e : entries) {
                db.put(e[0], new byte[] {42}); // every key present before, so the deletes have something to delete
            }
            try (WriteBatch batch = new WriteBatch(of(entries))) {
                db.write(w, batch);
            }
            for (byte[][] e : entries) {
                if (e[1] == null) {
                    assertNull(db.get(e[0]));
                } else {
                    assertArrayEquals(e[1], db.get(e[0]));
                }
            }
        }
    }

    /** A posting list's merges: what RocksJava's merge builds, and appended by the view's operator as the index's own append does. */
    @Test
    void mergesAreRocksJavasAndAppendAsTheIndexDoes(@TempDir Path dir) throws Exception {
        byte[][] keys = {"Qfa".getBytes(), "Qfb".getBytes(), "S".getBytes()};
        byte[][] values = {"1".getBytes(), "23".getBytes(), "s".getBytes()};
        boolean[] merges = {true, true, false};
        byte[] image = BatchImage.of(keys, values, merges);
        try (WriteBatch expected = new WriteBatch()) {
            expected.merge(keys[0], values[0]);
            expected.merge(keys[1], values[1]);
            expected.put(keys[2], values[2]);
            assertArrayEquals(expected.data(), image);
        }
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(ViewRocks.APPEND);
             RocksDB db = RocksDB.open(o, dir.toString()); WriteOptions w = new WriteOptions()) {
            for (int round = 0; round < 2; round++) {
                try (WriteBatch batch = new WriteBatch(image)) {
                    db.write(w, batch);
                }
            }
            db.compactRange();
            assertArrayEquals(io.quire.journal.view.SearchIndex.append("1".getBytes(), "1".getBytes()), db.get(keys[0]));
            assertArrayEquals("2323".getBytes(), db.get(keys[1]));
            assertArrayEquals("s".getBytes(), db.get(keys[2]));
        }
    }
}
