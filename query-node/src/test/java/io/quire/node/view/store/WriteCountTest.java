package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** The view store counts commands per first byte of the keys they write, and no two stores share a count. */
class WriteCountTest {

    private static KeyValue<Bytes, byte[]> entry(String key, String value) {
        return KeyValue.pair(Bytes.wrap(key.getBytes()), value == null ? null : value.getBytes());
    }

    @Test
    void aCommandMovesTheCountOfEachPrefixItWritesOnceAndNoOther() throws Exception {
        ViewStore store = PointReadTest.open(Files.createTempDirectory("quire-write-count"));
        try {
            long s = store.writesUnder((byte) 'S');
            long v = store.writesUnder((byte) 'V');
            long high = store.writesUnder((byte) 0xF0);
            store.putAll(List.of(entry("Sa", "1"), entry("Sb", "2"), entry("Va\0\0\0\0\1", "x")));
            assertEquals(s + 1, store.writesUnder((byte) 'S'), "two subject entries in one command count once");
            assertEquals(v + 1, store.writesUnder((byte) 'V'));
            store.delete(Bytes.wrap("Sa".getBytes()));
            assertEquals(s + 2, store.writesUnder((byte) 'S'), "a delete is a write");
            assertEquals(v + 1, store.writesUnder((byte) 'V'), "untouched");
            store.put(Bytes.wrap(new byte[] {(byte) 0xF0, 1}), new byte[] {1});
            assertEquals(high + 1, store.writesUnder((byte) 0xF0), "a prefix byte above 0x7F");
            store.flush();
            assertEquals(s + 2, store.writesUnder((byte) 'S'), "writing the group to RocksDB is not a new write");
        } finally {
            store.close();
        }
        Path other = Files.createTempDirectory("quire-write-count");
        ViewStore second = PointReadTest.open(other);
        try {
            assertNotEquals(store.writesUnder((byte) 'S'), second.writesUnder((byte) 'S'),
                    "a new store's count is not an old store's");
        } finally {
            second.close();
        }
    }
}
