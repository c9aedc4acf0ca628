package io.quire.journal.view;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** A sorted in-memory byte store: the view of unit tests and of offline rebuilds. */
public final class InMemoryKv implements KvReader {

    private final NavigableMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);
    private final long[] writesByPrefix = new long[256];

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public void scan(byte[] prefix, KvVisitor visitor) {
        for (Map.Entry<byte[], byte[]> e : map.tailMap(prefix, true).entrySet()) {
            if (!startsWith(e.getKey(), prefix) || !visitor.visit(e.getKey(), e.getValue())) {
                return;
            }
        }
    }

    @Override
    public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
        for (Map.Entry<byte[], byte[]> e : map.tailMap(start, true).entrySet()) {
            if (!startsWith(e.getKey(), prefix) || !visitor.visit(e.getKey(), e.getValue())) {
                return;
            }
        }
    }

    @Override
    public long writesUnder(byte prefix) {
        return writesByPrefix[prefix & 0xff];
    }

    public void apply(Changes changes) {
        boolean[] seen = new boolean[256];
        List<Changes.Entry> entries = changes.ownEntries();
        entries.addAll(SearchIndex.expandAll(changes.derivedEntries())); // as the view store expands them
        for (Changes.Entry e : entries) {
            if (e.key().length > 0 && !seen[e.key()[0] & 0xff]) {
                seen[e.key()[0] & 0xff] = true;
                writesByPrefix[e.key()[0] & 0xff]++;
            }
            if (e.value() == null) {
                map.remove(e.key());
            } else if (SearchIndex.isAppend(e.key())) {
                map.put(e.key(), SearchIndex.append(map.get(e.key()), e.value())); // as RocksDB's merge operator
            } else {
                map.put(e.key(), e.value());
            }
        }
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
