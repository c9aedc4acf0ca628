package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.Subject;
import io.quire.journal.view.KvReader;
import io.quire.journal.view.RegistryView;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A page of {@code GET /subjects} or {@code GET /schemas} reads the entries up to the page's end,
 * once each, and no more; the next page starts where the one before ended while the list is
 * unchanged, and from the start once it may have changed.
 */
class SubjectPagingTest {

    @Test
    void aPageStopsTheScanAndReadsNoRecordTwice() {
        RegistryHarness h = new RegistryHarness();
        for (int i = 0; i < 40; i++) {
            h.register(String.format("s%02d", i), "{\"type\":\"record\",\"name\":\"R" + i + "\",\"fields\":[]}");
        }
        KvReader store = h.journal.view().kv();
        long[] visited = {0};
        long[] gets = {0};
        h.access.open(new RegistryView(new KvReader() {
            @Override
            public byte[] get(byte[] key) {
                gets[0]++;
                return store.get(key);
            }

            @Override
            public void scan(byte[] prefix, KvVisitor visitor) {
                store.scan(prefix, (k, v) -> {
                    visited[0]++;
                    return visitor.visit(k, v);
                });
            }
        }));
        List<Subject> page = h.registry.subjects().subjects("", false, false, s -> true, List.of(), null, 10, 5);
        assertEquals(IntStream.range(10, 15).mapToObj(i -> Subject.of(String.format("s%02d", i))).toList(), page);
        assertTrue(visited[0] <= 16, "the scan stopped at the page's end (and the first entry after it): "
                + visited[0] + " of 40");
        assertEquals(0, gets[0], "each subject's record came from the scan, not a second read");
        assertEquals(40, h.registry.subjects().subjects("", false, false).size(), "no limit: all");
    }

    /** Counts the entries scans visit, and passes the store's write counts through. */
    private static final class Counting implements KvReader {
        final KvReader store;
        long visited;

        Counting(KvReader store) {
            this.store = store;
        }

        @Override
        public byte[] get(byte[] key) {
            return store.get(key);
        }

        @Override
        public void scan(byte[] prefix, KvVisitor visitor) {
            store.scan(prefix, (k, v) -> {
                visited++;
                return visitor.visit(k, v);
            });
        }

        @Override
        public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
            store.scanFrom(prefix, start, (k, v) -> {
                visited++;
                return visitor.visit(k, v);
            });
        }

        @Override
        public long writesUnder(byte prefix) {
            return store.writesUnder(prefix);
        }

        long take() {
            long v = visited;
            visited = 0;
            return v;
        }
    }

    private static List<Subject> names(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> Subject.of(String.format("s%02d", i))).toList();
    }

    @Test
    void walkingTheSubjectsPageByPageStartsEachPageWhereTheLastEnded() {
        RegistryHarness h = new RegistryHarness();
        for (int i = 0; i < 40; i++) {
            h.register(String.format("s%02d", i), "{\"type\":\"record\",\"name\":\"R" + i + "\",\"fields\":[]}");
        }
        Counting kv = new Counting(h.journal.view().kv());
        h.access.open(new RegistryView(kv));
        SubjectReads reads = h.registry.subjects();
        for (int page = 0; page < 8; page++) {
            assertEquals(names(page * 5, page * 5 + 5), reads.subjects("", false, false, s -> true, List.of(), null,
                    page * 5, 5));
            assertTrue(kv.take() <= 6, "page " + page + " visited only its own entries and the next one");
        }
        assertEquals(names(10, 15), reads.subjects("", false, false, s -> true, List.of("s"), null, 10, 5));
        assertTrue(kv.take() > 10, "a caller who may see other subjects does not use the points of another");

        // A new subject sorts first: every offset now names the subject before it. The page is
        // scanned from the start again, and is right.
        h.register("a-first", "{\"type\":\"record\",\"name\":\"A\",\"fields\":[]}");
        List<Subject> shifted = reads.subjects("", false, false, s -> true, List.of(), null, 10, 5);
        assertEquals(names(9, 14), shifted);
        assertTrue(kv.take() > 10, "after a subject was written, the page was counted from the start");

        assertEquals(names(10, 13), reads.subjects("", false, false, s -> true, List.of(), "s09", 0, 3));
        assertTrue(kv.take() <= 4, "after= seeks to the subject after it");
        assertEquals(names(12, 14), reads.subjects("", false, false, s -> true, List.of(), "s09", 2, 2));
        assertEquals(List.of(), reads.subjects("s1", false, false, s -> true, List.of(), "s2", 0, 3),
                "after= past the prefix: nothing");
    }

    @Test
    void walkingTheSchemasPageByPageStartsEachPageInsideTheSubjectWhereTheLastEnded() {
        RegistryHarness h = new RegistryHarness();
        for (int i = 0; i < 6; i++) {
            StringBuilder fields = new StringBuilder();
            for (int v = 0; v < 4; v++) {
                // each version adds a field with a default: backward compatible with the one before
                fields.append(v == 0 ? "" : ",").append("{\"name\":\"f").append(v)
                        .append("\",\"type\":\"string\",\"default\":\"\"}");
                h.register(String.format("s%02d", i), "{\"type\":\"record\",\"name\":\"R" + i
                        + "\",\"fields\":[" + fields + "]}");
            }
        }
        Counting kv = new Counting(h.journal.view().kv());
        h.access.open(new RegistryView(kv));
        SchemaReads reads = h.registry.schemas();
        List<String> all = reads.schemas("", false, false, 0, 1000, s -> true, List.of()).stream()
                .map(v -> v.subject() + "/" + v.version()).toList();
        assertEquals(24, all.size());
        kv.take();
        List<String> walked = new java.util.ArrayList<>();
        for (int offset = 0; offset < 24; offset += 3) {
            walked.addAll(reads.schemas("", false, false, offset, 3, s -> true, List.of()).stream()
                    .map(v -> v.subject() + "/" + v.version()).toList());
            // a subject record and its four versions for each of at most two subjects
            long visited = kv.take();
            assertTrue(offset == 0 || visited <= 10, "page at " + offset + " scanned from the subject it starts in: "
                    + visited);
        }
        assertEquals(all, walked);
        h.register("s99", "{\"type\":\"record\",\"name\":\"Z\",\"fields\":[]}");
        kv.take();
        assertEquals(all.subList(21, 24), reads.schemas("", false, false, 21, 3, s -> true, List.of()).stream()
                .map(v -> v.subject() + "/" + v.version()).toList());
        assertTrue(kv.take() > 25, "after a version was written, the page was counted from the start");
    }
}
