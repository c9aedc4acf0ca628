package io.quire.node.view.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots as routine: once the view has applied {@code everyRecords} records past the newest
 * snapshot under {@code folder}, another is taken, and only the newest {@code retain} are kept.
 * Run on the node's housekeeping thread; a snapshot that fails is logged and tried again at the
 * next run.
 */
public final class AutoSnapshots implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(AutoSnapshots.class);

    private final long everyRecords;
    private final int retain;
    private final LongSupplier applied;
    private final Callable<?> snapshot;
    private final Path folder;
    private long last = Long.MIN_VALUE;

    public AutoSnapshots(long everyRecords, int retain, LongSupplier applied, Callable<?> snapshot, Path folder) {
        if (everyRecords <= 0 || retain < 1) {
            throw new IllegalArgumentException("snapshots every " + everyRecords + " records, keeping " + retain);
        }
        this.everyRecords = everyRecords;
        this.retain = retain;
        this.applied = applied;
        this.snapshot = snapshot;
        this.folder = folder;
    }

    @Override
    public void run() {
        try {
            if (last == Long.MIN_VALUE) {
                last = snapshots().stream().map(AutoSnapshots::offsetOf).max(Long::compare).orElse(-1L);
            }
            long at = applied.getAsLong();
            if (at - last < everyRecords) {
                return;
            }
            snapshot.call();
            last = at;
            prune();
        } catch (Exception e) {
            LOG.warn("automatic snapshot failed (tried again at the next run): {}", e.toString());
        }
    }

    /** Deletes all but the newest {@code retain} snapshots. */
    void prune() throws IOException {
        List<Path> all = snapshots();
        all.sort(Comparator.comparingLong(AutoSnapshots::offsetOf).reversed());
        for (Path old : all.subList(Math.min(retain, all.size()), all.size())) {
            Folders.deleteTree(old);
            LOG.info("snapshot {} removed (keeping the newest {})", old.getFileName(), retain);
        }
    }

    /** The complete snapshots under the folder ({@code snapshot-<offset>}, with a manifest). */
    List<Path> snapshots() throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return out;
        }
        try (Stream<Path> s = Files.list(folder)) {
            s.filter(p -> p.getFileName().toString().matches("snapshot-\\d+")
                    && Files.isRegularFile(p.resolve(Snapshots.MANIFEST))).forEach(out::add);
        }
        return out;
    }

    static long offsetOf(Path snapshot) {
        return Long.parseLong(snapshot.getFileName().toString().substring("snapshot-".length()));
    }
}
