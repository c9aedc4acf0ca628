package io.quire.journal.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads through pending changes: point reads and merged scans, deletes hiding what is below. */
class OverlayKvTest {

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static List<String> scan(KvReader kv, String prefix, String start, int stopAfter) {
        List<String> out = new ArrayList<>();
        kv.scanFrom(b(prefix), b(start), (k, v) -> {
            out.add(new String(k, StandardCharsets.UTF_8) + "=" + new String(v, StandardCharsets.UTF_8));
            return out.size() < stopAfter;
        });
        return out;
    }

    @Test
    void pendingWritesAndDeletesAreMergedWithTheStoreInKeyOrder() {
        InMemoryKv below = new InMemoryKv();
        below.apply(new Changes().put(b("a1"), b("x")).put(b("a3"), b("x")).put(b("a5"), b("x")).put(b("b1"), b("x")));
        OverlayKv over = new OverlayKv(below);
        over.apply(new Changes().put(b("a2"), b("y")).put(b("a3"), b("y")).delete(b("a5")).put(b("a6"), b("y"))
                .put(b("c1"), b("y")));
        assertEquals(List.of("a1=x", "a2=y", "a3=y", "a6=y"), scan(over, "a", "a", 100));
        assertEquals(List.of("a3=y", "a6=y"), scan(over, "a", "a3", 100));
        assertEquals(List.of("a1=x", "a2=y"), scan(over, "a", "a", 2), "stops where the visitor says");
        assertEquals(List.of("b1=x"), scan(over, "b", "b", 100));
        assertEquals(List.of("c1=y"), scan(over, "c", "c", 100));
        assertNull(over.get(b("a5")));
        assertArrayEquals(b("y"), over.get(b("a3")));
        assertArrayEquals(b("x"), over.get(b("a1")));
        assertArrayEquals(b("x"), below.get(b("a5")), "the store below is untouched");
    }
}
