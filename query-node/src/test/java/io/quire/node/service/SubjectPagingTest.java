package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.Subject;
import io.quire.journal.view.KvReader;
import io.quire.journal.view.RegistryView;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A page of {@code GET /subjects} reads the subjects up to the page's end, once each, and no more. */
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
        List<Subject> page = h.registry.subjects().subjects("", false, false, s -> true, 10, 5);
        assertEquals(IntStream.range(10, 15).mapToObj(i -> Subject.of(String.format("s%02d", i))).toList(), page);
        assertTrue(visited[0] <= 15, "the scan stopped at the page's end: " + visited[0] + " of 40");
        assertEquals(0, gets[0], "each subject's record came from the scan, not a second read");
        assertEquals(40, h.registry.subjects().subjects("", false, false).size(), "no limit: all");
    }
}
