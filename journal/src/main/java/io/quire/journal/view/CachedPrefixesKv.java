package io.quire.journal.view;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link KvReader} that keeps every entry under a few one-byte key prefixes in memory, in front
 * of another reader. For the applier's view: the settings (position, id watermark, global and
 * per-subject levels, modes and normalize flags) are read for nearly every command, are few, and
 * are mostly absent for a given subject, which costs the store a lookup each time. The applier is
 * the view's only writer and calls {@link #apply} after each write, so the copy never goes stale.
 */
public final class CachedPrefixesKv implements KvReader {

    /** The prefixes of the settings: G (global entries), C, D, N and X (subject level, mode, normalize, other fields). */
    public static final byte[] SETTINGS = {'G', 'C', 'D', 'N', 'X'};

    private final KvReader inner;
    private final boolean[] cached = new boolean[256];
    private final TreeMap<byte[], byte[]> entries = new TreeMap<>(Arrays::compareUnsigned);

    public CachedPrefixesKv(KvReader inner, byte[] prefixes) {
        this.inner = inner;
        for (byte p : prefixes) {
            cached[p & 0xff] = true;
            inner.scan(new byte[] {p}, (k, v) -> {
                entries.put(k, v);
                return true;
            });
        }
    }

    private boolean isCached(byte[] key) {
        return key.length > 0 && cached[key[0] & 0xff];
    }

    @Override
    public byte[] get(byte[] key) {
        return isCached(key) ? entries.get(key) : inner.get(key);
    }

    @Override
    public void scan(byte[] prefix, KvVisitor visitor) {
        if (!isCached(prefix)) {
            inner.scan(prefix, visitor);
            return;
        }
        scanCached(prefix, prefix, visitor);
    }

    @Override
    public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
        if (!isCached(prefix)) {
            inner.scanFrom(prefix, start, visitor);
            return;
        }
        scanCached(prefix, start, visitor);
    }

    private void scanCached(byte[] prefix, byte[] start, KvVisitor visitor) {
        for (Map.Entry<byte[], byte[]> e : entries.tailMap(start, true).entrySet()) {
            byte[] k = e.getKey();
            if (k.length < prefix.length || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)
                    || !visitor.visit(k, e.getValue())) {
                return;
            }
        }
    }

    /** Takes the cached part of the entries just written to the inner store. */
    public void apply(java.util.List<Changes.Entry> written) {
        for (Changes.Entry e : written) {
            if (isCached(e.key())) {
                if (e.value() == null) {
                    entries.remove(e.key());
                } else {
                    entries.put(e.key(), e.value());
                }
            }
        }
    }
}
