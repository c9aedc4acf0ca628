package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.journal.view.Changes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** A group's derived entries (the search index's): written in key order and once, readable once a scan asks for their kind. */
class PendingLayerDerivedTest {

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Changes.Entry e(String key) {
        return new Changes.Entry(b(key), new byte[] {'A'});
    }

    static List<String> keys(PendingLayer.Sorted sorted) {
        return java.util.Arrays.stream(sorted.keys()).map(k -> new String(k, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void theGroupsWriteHasEveryKeyOnceInKeyOrderBesideTheOtherEntries() {
        PendingLayer layer = new PendingLayer(16);
        layer.putAll(List.of(KeyValue.pair(Bytes.wrap(b("Ssubject")), b("s")), KeyValue.pair(Bytes.wrap(b("I1")), b("i"))),
                new long[] {KeyHash.of(b("Ssubject")), KeyHash.of(b("I1"))});
        layer.addDerived(List.of(e("Qfzeta"), e("Qfalpha"), e("qfahpla")));
        layer.addDerived(List.of(e("Qfalpha"), e("Qdword")));
        assertEquals(List.of("I1", "Qdword", "Qfalpha", "Qfzeta", "Ssubject", "qfahpla"), keys(layer.sorted()));
        assertEquals(7, layer.size(), "two entries and five derived writes (one key twice) until the write");
        assertNull(layer.get(b("Qfalpha"), KeyHash.of(b("Qfalpha"))), "not in the map before a scan asks");
    }

    @Test
    void aScanOfTheKindSeesThemAndLaterOnesAtOnce() {
        PendingLayer layer = new PendingLayer(16);
        layer.addDerived(List.of(e("Qfzeta"), e("Qfalpha")));
        List<Map.Entry<Bytes, byte[]>> seen = layer.sortedRange(null, null, b("Qf"));
        assertEquals(List.of("Qfalpha", "Qfzeta"), seen.stream().map(x -> new String(x.getKey().get(),
                StandardCharsets.UTF_8)).toList());
        layer.addDerived(List.of(e("Qfmid")));
        assertEquals(3, layer.sortedRange(null, null, b("Qf")).size(), "added after the scan: readable at once");
        assertArrayEquals(new byte[] {'A'}, layer.get(b("Qfmid"), KeyHash.of(b("Qfmid"))));
        assertEquals(List.of("Qfalpha", "Qfmid", "Qfzeta"), keys(layer.sorted()), "and written once each");
    }
}
