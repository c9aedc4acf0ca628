package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.journal.view.Changes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * A group's derived entries (the search index's): written in key order, a posting list's operands
 * joined into one merge in the order they came, another key once; never read from the layer.
 */
class PendingLayerDerivedTest {

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Changes.Entry e(String key, String value) {
        return new Changes.Entry(b(key), b(value));
    }

    @Test
    void theGroupsWriteHasEveryKeyOnceInKeyOrderWithAListsOperandsJoined() {
        PendingLayer layer = new PendingLayer(16);
        layer.putAll(List.of(KeyValue.pair(Bytes.wrap(b("Ssubject")), b("s")), KeyValue.pair(Bytes.wrap(b("I1")), b("i"))),
                new long[] {KeyHash.of(b("Ssubject")), KeyHash.of(b("I1"))});
        layer.addDerived(List.of(e("Qfzeta", "1"), e("Qfalpha", "2"), e("qfahpla", "x"), e("Qsorders", "y")));
        layer.addDerived(List.of(e("Qfalpha", "3"), e("Qdword", "4"), e("qfahpla", "x"), e("Qfalpha", "5")));
        PendingLayer.Sorted sorted = layer.sorted();
        assertEquals(List.of("I1", "Qdword", "Qfalpha", "Qfzeta", "Qsorders", "Ssubject", "qfahpla"),
                Arrays.stream(sorted.keys()).map(k -> new String(k, StandardCharsets.UTF_8)).toList());
        assertEquals(List.of("i", "4", "235", "1", "y", "s", "x"),
                Arrays.stream(sorted.values()).map(v -> new String(v, StandardCharsets.UTF_8)).toList(),
                "a list's operands in the order they came, as RocksDB's string-append operator joins them");
        assertArrayEquals(new boolean[] {false, true, true, true, false, false, false}, sorted.merges(),
                "posting lists are merged; a subject's name and the dictionary are put");
        assertNull(layer.get(b("Qfalpha"), KeyHash.of(b("Qfalpha"))), "never read from the layer");
        assertEquals(List.of(), layer.sortedRange(null, null, b("Qf")), "nor scanned there");
    }
}
