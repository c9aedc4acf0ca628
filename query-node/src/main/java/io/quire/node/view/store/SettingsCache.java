package io.quire.node.view.store;

import io.quire.journal.view.Keys;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * Every settings entry of the view (levels, modes, normalize flags, other config fields, the
 * registry's own entries), kept in memory from the applier's writes: a registration reads a dozen
 * of them, nearly all absent, at the edge and again in the applier. The node's one settings cache:
 * the applier reads through the store too. Given up (reads go to the store) once they outgrow {@link #MAX_BYTES}.
 * Which keys are settings is the journal's {@link Keys#SETTINGS}.
 */
final class SettingsCache {

    /** The memory the settings may take before the cache is given up. */
    static final long MAX_BYTES = 32L << 20;

    private volatile ConcurrentHashMap<Bytes, byte[]> entries;
    private long bytes;

    /** Fills the cache from the store's files (at open, before any write). */
    void load(RocksDB db) {
        ConcurrentHashMap<Bytes, byte[]> loaded = new ConcurrentHashMap<>();
        bytes = 0;
        for (byte p : Keys.SETTINGS) {
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(new byte[] {p}); it.isValid() && it.key().length > 0 && it.key()[0] == p; it.next()) {
                    byte[] k = it.key();
                    byte[] v = it.value();
                    loaded.put(Bytes.wrap(k), v);
                    bytes += k.length + v.length + 64;
                }
            }
        }
        entries = bytes > MAX_BYTES ? null : loaded;
    }

    /** Whether a key is a settings entry. */
    boolean covers(byte[] key) {
        return Keys.isSetting(key);
    }

    /** Every settings entry, or null once they outgrew the bound (then the store answers). */
    Map<Bytes, byte[]> entries() {
        return entries;
    }

    /** The applier's write of a settings entry (one writer at a time); null deletes it. */
    void put(byte[] key, byte[] value) {
        ConcurrentHashMap<Bytes, byte[]> map = entries;
        if (map == null) {
            return;
        }
        byte[] old = value == null ? map.remove(Bytes.wrap(key)) : map.put(Bytes.wrap(key), value);
        bytes += (value == null ? 0 : key.length + value.length + 64) - (old == null ? 0 : key.length + old.length + 64);
        if (bytes > MAX_BYTES) {
            entries = null; // beyond the bound: reads go to the layers and the store, as for every other key
        }
    }
}
