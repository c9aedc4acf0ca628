package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes one command makes, in order, applied by the store as one atomic batch together with
 * the new position. A null value deletes the key.
 */
public final class Changes {

    /** One write; {@code value} null means delete. */
    public record Entry(byte[] key, byte[] value) {
    }

    private final Map<ByteBuffer, Entry> entries = new LinkedHashMap<>();

    public Changes put(byte[] key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("use delete() to remove a key");
        }
        entries.put(ByteBuffer.wrap(key), new Entry(key, value));
        return this;
    }

    public Changes delete(byte[] key) {
        entries.put(ByteBuffer.wrap(key), new Entry(key, null));
        return this;
    }

    public List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    public int size() {
        return entries.size();
    }
}
