package io.quire.node.view.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Automatic snapshots: one each time enough records were applied since the newest, the newest few kept. */
class AutoSnapshotsTest {

    @TempDir
    Path folder;

    @Test
    void everyNRecordsOneSnapshotAndOnlyTheNewestAreKept() throws Exception {
        AtomicLong applied = new AtomicLong(-1);
        AtomicInteger taken = new AtomicInteger();
        AutoSnapshots auto = new AutoSnapshots(100, 2, applied::get, () -> {
            Path s = Files.createDirectories(folder.resolve(String.format("snapshot-%012d", applied.get())));
            Files.writeString(s.resolve(Snapshots.MANIFEST), "{}");
            return taken.incrementAndGet();
        }, folder);
        auto.run();
        assertEquals(0, taken.get(), "nothing applied yet");
        applied.set(98);
        auto.run();
        assertEquals(0, taken.get(), "99 records since none: not yet");
        applied.set(99);
        auto.run();
        assertEquals(1, taken.get(), "100 records");
        applied.set(150);
        auto.run();
        assertEquals(1, taken.get(), "51 since the last");
        for (long at : new long[] {199, 305, 420}) {
            applied.set(at);
            auto.run();
        }
        assertEquals(4, taken.get());
        assertEquals(java.util.List.of(305L, 420L), auto.snapshots().stream().map(AutoSnapshots::offsetOf).sorted()
                .toList(), "the newest two are kept");
        Files.createDirectories(folder.resolve("snapshot-000000009999")); // no manifest: not a complete snapshot
        AutoSnapshots restarted = new AutoSnapshots(100, 2, () -> 500, () -> taken.incrementAndGet(), folder);
        restarted.run();
        assertEquals(4, taken.get(), "a restarted node counts from its newest snapshot (420), not from nothing");
    }
}
