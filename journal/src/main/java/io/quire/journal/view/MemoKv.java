package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link KvReader} that remembers the point reads it passed on, absent keys included, for one
 * short piece of work on one thread: a registration asks for the same few keys (the content's
 * fingerprint, the subject, its latest version) several times over while it checks, and most of
 * them are absent, which costs the store a probe of every file's filter each time. Scans are not
 * remembered. A memo sees the store as it was at its first read of each key: a check that must
 * see later writes takes a new one, and the applier re-checks whatever the command relies on.
 */
final class MemoKv implements KvReader {

    private static final byte[] ABSENT = new byte[0];

    private final KvReader inner;
    private final Map<ByteBuffer, byte[]> seen = new HashMap<>();

    MemoKv(KvReader inner) {
        this.inner = inner;
    }

    @Override
    public byte[] get(byte[] key) {
        ByteBuffer k = ByteBuffer.wrap(key);
        byte[] v = seen.get(k);
        if (v == null) {
            v = inner.get(key);
            seen.put(ByteBuffer.wrap(key.clone()), v == null ? ABSENT : v);
            return v;
        }
        return v == ABSENT ? null : v;
    }

    @Override
    public void scan(byte[] prefix, KvVisitor visitor) {
        inner.scan(prefix, visitor);
    }

    @Override
    public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
        inner.scanFrom(prefix, start, visitor);
    }

    @Override
    public long writesUnder(byte prefix) {
        return inner.writesUnder(prefix);
    }

}
