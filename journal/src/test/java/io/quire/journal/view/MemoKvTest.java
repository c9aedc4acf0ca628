package io.quire.journal.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoKvTest {

    /** Counts the point reads that reach the store. */
    private static final class CountingKv implements KvReader {
        final InMemoryKv inner = new InMemoryKv();
        int gets;

        @Override
        public byte[] get(byte[] key) {
            gets++;
            return inner.get(key);
        }

        @Override
        public void scan(byte[] prefix, KvVisitor visitor) {
            inner.scan(prefix, visitor);
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void eachKeyReachesTheStoreOnceAbsentKeysIncluded() {
        CountingKv store = new CountingKv();
        store.inner.apply(new Changes().put(b("Sa"), b("one")).put(b("Sempty"), new byte[0]));
        KvReader memo = new MemoKv(store);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(b("one"), memo.get(b("Sa")));
            assertNull(memo.get(b("Sb")));
            assertArrayEquals(new byte[0], memo.get(b("Sempty")), "an empty value is not an absent key");
        }
        assertEquals(3, store.gets);
    }

    @Test
    void aMemoizedViewDecodesEachStoredSchemaOnce() {
        CountingKv store = new CountingKv();
        io.quire.journal.model.Context ctx = io.quire.journal.model.Context.DEFAULT;
        io.quire.journal.model.SchemaId id = io.quire.journal.model.SchemaId.of(7);
        StoredSchema stored = new StoredSchema("{\"type\":\"string\"}", io.quire.journal.model.SchemaType.AVRO, List.of());
        store.inner.apply(new Changes().put(Keys.schema(ctx, id), stored.encode()));
        RegistryView view = new RegistryView(store);
        RegistryView memo = view.memoized();
        StoredSchema first = memo.schema(ctx, id).orElseThrow();
        assertEquals(stored, first);
        org.junit.jupiter.api.Assertions.assertSame(first, memo.schema(ctx, id).orElseThrow());
        assertEquals(1, store.gets);
        org.junit.jupiter.api.Assertions.assertNotSame(view.schema(ctx, id).orElseThrow(), view.schema(ctx, id).orElseThrow(),
                "a view without a memo decodes what it reads each time");
        assertEquals(java.util.Optional.empty(), memo.schema(ctx, io.quire.journal.model.SchemaId.of(8)));
    }

    @Test
    void aMemoKeepsWhatItFirstReadAndANewOneSeesLaterWrites() {
        CountingKv store = new CountingKv();
        RegistryView view = new RegistryView(store);
        RegistryView memo = view.memoized();
        byte[] key = b("Sa");
        byte[] asked = key.clone();
        assertNull(memo.kv().get(asked));
        asked[1] = 'z'; // the caller reusing its array changes nothing remembered
        store.inner.apply(new Changes().put(key, b("later")));
        assertNull(memo.kv().get(key), "the round sees the store as it first read it");
        assertArrayEquals(b("later"), view.memoized().kv().get(key));
        assertArrayEquals(b("later"), view.kv().get(key));
    }

    @Test
    void scansAreNotRemembered() {
        CountingKv store = new CountingKv();
        store.inner.apply(new Changes().put(b("Va1"), b("x")));
        KvReader memo = new MemoKv(store);
        List<String> seen = new ArrayList<>();
        memo.scan(b("V"), (k, v) -> seen.add(new String(k, StandardCharsets.UTF_8)));
        store.inner.apply(new Changes().put(b("Va2"), b("y")));
        memo.scan(b("V"), (k, v) -> seen.add(new String(k, StandardCharsets.UTF_8)));
        assertEquals(List.of("Va1", "Va1", "Va2"), seen);
        assertEquals(0, store.gets);
    }
}
