package io.quire.journal.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.SearchTerm.Kind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A posting list's entries: two bytes each, the id's block in the list's key. */
class PackedListTest {

    private static final long[] IDS = {0, 1, 1023, 1024, 1025, 70_000, (1L << 31) + 7, (1L << 40) + 1023};

    @Test
    void everyIdAndTypeComesBackFromItsListAndKey() {
        SchemaType[] types = SchemaType.values();
        for (long id : IDS) {
            for (SchemaType type : types) {
                Map<String, byte[]> lists = expand(id, type, "field\tcustomer_id\tstatus");
                assertEquals(2, lists.size(), "one list per term");
                for (Map.Entry<String, byte[]> e : lists.entrySet()) {
                    byte[] key = e.getKey().getBytes(StandardCharsets.ISO_8859_1);
                    byte[] list = e.getValue();
                    assertEquals(SearchIndex.ENTRY, list.length);
                    assertEquals(id, SearchIndex.entryId(SearchIndex.block(key), list, 0), "id " + id);
                    assertEquals(SearchIndex.typeCode(type), SearchIndex.entryType(list, 0));
                    assertArrayEquals(key, SearchIndex.list(Kind.FIELD.code(), keyOf(key), Context.DEFAULT, SchemaId.of(id)));
                    assertTrue(SearchIndex.holds(list, SchemaId.of(id)));
                }
            }
        }
    }

    @Test
    void listsAppendEndToEndAndReadInIdOrder() {
        byte[] key = SearchIndex.list(Kind.FIELD.code(), "status", Context.DEFAULT, SchemaId.of(2048));
        byte[] list = null;
        for (long id : new long[] {2050, 2048, 3071}) {
            list = SearchIndex.append(list, SearchIndex.entry(id, (byte) 'P'));
        }
        assertEquals(3, SearchIndex.entries(list));
        assertEquals(3 * SearchIndex.ENTRY, list.length);
        List<long[]> sorted = SearchReads.sortedEntries(key, list);
        assertEquals(List.of(2048L, 2050L, 3071L), sorted.stream().map(e -> e[0]).toList());
        assertTrue(sorted.stream().allMatch(e -> e[1] == 'P'));
        assertTrue(SearchIndex.holds(list, SchemaId.of(3071)));
        assertFalse(SearchIndex.holds(list, SchemaId.of(2049)));
    }

    /** The lists a content's bundle expands into, by key (as Latin-1 text, so that keys compare). */
    private static Map<String, byte[]> expand(long id, SchemaType type, String encoded) {
        Changes out = new Changes();
        SearchIndex.file(out, Context.DEFAULT, SchemaId.of(id), type, List.of(encoded), null);
        Map<String, byte[]> lists = new LinkedHashMap<>();
        List<Changes.Entry> derived = new ArrayList<>(out.derivedEntries());
        for (Changes.Entry e : SearchIndex.expandAll(derived)) {
            if (SearchIndex.isAppend(e.key())) {
                lists.merge(new String(e.key(), StandardCharsets.ISO_8859_1), e.value(), SearchIndex::append);
            }
        }
        return lists;
    }

    /** The term of a list's key ({@code Q kind term 0 …}). */
    private static String keyOf(byte[] key) {
        int zero = 2;
        while (key[zero] != 0) {
            zero++;
        }
        return new String(key, 2, zero - 2, StandardCharsets.UTF_8);
    }
}
