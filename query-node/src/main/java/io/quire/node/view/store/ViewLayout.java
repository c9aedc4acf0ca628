package io.quire.node.view.store;

import io.quire.journal.view.Keys;
import io.quire.journal.view.KvReader;
import io.quire.journal.view.RegistryView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Checks a view on disk, before a node opens it, for a layout older than its applier writes. A
 * view built before versions had global ids cannot be brought forward in place (the ids follow
 * journal order across subjects, which the view does not keep), so the node rebuilds it from the
 * journal instead, and every node ends with the same ids. A view of an older layout
 * ({@link io.quire.journal.view.Keys#LAYOUT}) is rebuilt the same way, so that every node of one
 * build holds the same bytes ({@code verify} compares them).
 */
public final class ViewLayout {

    private ViewLayout() {
    }

    /**
     * Why the view at {@code db} must be rebuilt before a node serves it, or null when it need not
     * (no view yet, or one of the current layout).
     */
    public static String rebuildReason(Path db) throws RocksDBException {
        if (!Files.exists(db.resolve("CURRENT"))) {
            return null;
        }
        try (Options o = new Options(); RocksDB r = RocksDB.openReadOnly(o, db.toAbsolutePath().toString())) {
            RegistryView view = new RegistryView(new ReadOnlyKv(r));
            if (view.ids().lacksGlobalIds()) {
                return "it was built before versions had global ids";
            }
            int layout = view.layout();
            return layout == 0 || layout == Keys.CURRENT_LAYOUT ? null
                    : "it is in view layout " + layout + " and this build writes layout " + Keys.CURRENT_LAYOUT;
        }
    }

    /** Point reads and prefix scans over a RocksDB opened read-only. */
    private record ReadOnlyKv(RocksDB db) implements KvReader {
        @Override
        public byte[] get(byte[] key) {
            try {
                return db.get(key);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void scan(byte[] prefix, KvVisitor visitor) {
            try (RocksIterator it = db.newIterator()) {
                for (it.seek(prefix); it.isValid(); it.next()) {
                    byte[] k = it.key();
                    if (k.length < prefix.length || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)
                            || !visitor.visit(k, it.value())) {
                        return;
                    }
                }
            }
        }
    }
}
