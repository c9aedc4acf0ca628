package io.quire.node.view.store;

import io.quire.node.view.apply.ApplyProcessor;
import io.quire.node.view.apply.ApplyListener;
import io.quire.node.view.apply.ApplyTimings;
import io.quire.node.view.apply.JournalTopology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.journal.DeterminismTest;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit in the view store, on real RocksDB through the real applier (the processor driven
 * directly: Kafka Streams' test driver commits after every record, which would write every group
 * at once): the same journal applied record by record and in groups of every size leaves the same
 * bytes and the same position digest, readers see what is applied before it is written, and the
 * position Streams resumes from counts only what is written.
 */
class GroupCommitTest {

    final List<ViewStore> stores = new ArrayList<>();

    record Run(ViewStore store, ApplyProcessor processor) {
        RegistryView view() {
            return new RegistryView(new StoreKv(store));
        }

        void apply(List<Envelope> journal, int from) {
            for (int i = 0; i < journal.size(); i++) {
                processor.apply(from + i, JournalCodec.encode(journal.get(i)));
            }
        }
    }

    /** What Streams hands a store when it opens it: a state folder, and a restore callback to keep. */
    static StateStoreContext context(Path dir) {
        return (StateStoreContext) Proxy.newProxyInstance(GroupCommitTest.class.getClassLoader(),
                new Class<?>[] {StateStoreContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "stateDir" -> dir.toFile();
                    case "register" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    Run start(GroupCommit group) throws Exception {
        ViewStore store = new ViewStore(JournalTopology.STORE, group, Tuning.DEFAULT);
        store.init(context(Files.createTempDirectory("quire-group")), store);
        stores.add(store);
        ApplyProcessor processor = new ApplyProcessor(JournalTopology.STORE, ApplyListener.NONE, false,
                new AtomicLong(), new ApplyTimings());
        processor.open(store);
        return new Run(store, processor);
    }

    @AfterEach
    void close() {
        stores.forEach(ViewStore::close);
    }

    @Test
    void groupsOfAnySizeLeaveTheSameViewAsRecordByRecord() throws Exception {
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(11));
        Run each = start(GroupCommit.EACH_RECORD);
        each.apply(journal, 0);
        Position expected = each.view().position();
        String digest = ViewDigest.of(each.view().kv());
        assertEquals(journal.size() - 1, expected.offset().value());
        each.store().flush(); // the last group may still be on the writer thread
        assertEquals(journal.size(), each.store().batchesWritten(), "record by record: a batch per record");

        for (int size : new int[] {2, 7, 64, 100_000}) {
            Run grouped = start(new GroupCommit(size, Long.MAX_VALUE, Duration.ofHours(1)));
            grouped.apply(journal, 0);
            // read through the pending layers and the written files together
            assertEquals(expected, grouped.view().position(), "position digest, groups of " + size);
            assertEquals(digest, ViewDigest.of(grouped.view().kv()), "view bytes, groups of " + size);
            grouped.store().flush();
            assertEquals(0, grouped.store().pendingCommands());
            assertEquals(digest, ViewDigest.of(grouped.view().kv()), "view bytes once written, groups of " + size);
            assertEquals((journal.size() + size - 1) / size, grouped.store().batchesWritten(), "batches, groups of " + size);
        }
    }

    @Test
    void readersSeeAppliedCommandsBeforeTheyAreWrittenAndResumeCountsOnlyWrittenOnes() throws Exception {
        Run run = start(new GroupCommit(100_000, Long.MAX_VALUE, Duration.ofHours(1)));
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(5));
        run.apply(journal.subList(0, 40), 0);
        TopicPartition tp = new TopicPartition("journal", 0);
        assertEquals(40, run.store().pendingCommands());
        assertEquals(0, run.store().batchesWritten());
        assertEquals(39, run.view().position().offset().value(), "reads see the pending group");
        assertNull(run.store().committedOffset(tp), "nothing written yet: a restart starts from the beginning");
        String pendingDigest = ViewDigest.of(run.view().kv());

        run.store().flush(); // what Streams' commit does
        assertEquals(1, run.store().batchesWritten());
        assertEquals(39L, run.store().committedOffset(tp));
        assertEquals(pendingDigest, ViewDigest.of(run.view().kv()));

        // a second group over the first: its values and deletes win over the written ones
        run.apply(journal.subList(40, journal.size()), 40);
        String mixed = ViewDigest.of(run.view().kv());
        run.store().flush();
        assertEquals(mixed, ViewDigest.of(run.view().kv()));
    }

    @Test
    void aGroupIsWrittenWhenItsOldestCommandReachesTheAgeBound() throws Exception {
        Run run = start(new GroupCommit(100_000, Long.MAX_VALUE, Duration.ofMillis(50)));
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(5)).subList(0, 2);
        run.apply(journal.subList(0, 1), 0);
        assertEquals(1, run.store().pendingCommands());
        Thread.sleep(80);
        run.apply(journal.subList(1, 2), 1); // the next write finds the group old enough
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (run.store().batchesWritten() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5); // handed to the writer thread
        }
        assertEquals(1, run.store().batchesWritten());
        assertEquals(0, run.store().pendingCommands());
        assertEquals(1L, run.store().committedOffset(new TopicPartition("journal", 0)));
    }

    @Test
    void aCountBoundHandsGroupsToTheWriterWhileTheApplierGoesOn() throws Exception {
        Run run = start(new GroupCommit(10, Long.MAX_VALUE, Duration.ofHours(1)));
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(9)).subList(0, 95);
        run.apply(journal, 0);
        assertEquals(5, run.store().pendingCommands(), "95 commands: nine groups handed over, five pending");
        run.store().flush();
        assertEquals(10, run.store().batchesWritten());
        assertEquals(94L, run.store().committedOffset(new TopicPartition("journal", 0)));
    }

    @Test
    void aStoreTheCatchUpOpenedTakesTheBoundsStreamsGivesIt() throws Exception {
        Run run = start(new GroupCommit(1_000, Long.MAX_VALUE, Duration.ofHours(1)));
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(11)).subList(0, 30);
        run.apply(journal, 0);
        assertEquals(30, run.store().pendingCommands(), "the catch-up's bounds: nothing handed over yet");
        List<ViewStore> created = new ArrayList<>();
        var supplied = ViewStoreSupplier.of(JournalTopology.STORE, new GroupCommit(10, Long.MAX_VALUE,
                Duration.ofHours(1)), Tuning.DEFAULT, created::add, run.store()).get();
        assertEquals(run.store(), supplied, "Streams goes on with the opened store");
        run.apply(DeterminismTest.randomJournal(new Random(11)).subList(30, 35), 30);
        run.store().flush();
        assertEquals(2, run.store().batchesWritten(), "the 31st command hands the group over under the new bounds");
        assertEquals(List.of(run.store()), created);
    }

    @Test
    void streamsCommitWritesThePendingGroupAndItsPosition() throws Exception {
        Run run = start(new GroupCommit(1_000, Long.MAX_VALUE, Duration.ofHours(1)));
        run.apply(DeterminismTest.randomJournal(new Random(13)).subList(0, 20), 0);
        assertEquals(20, run.store().pendingCommands());
        assertNull(run.store().committedOffset(new TopicPartition("journal", 0)), "nothing written yet");
        run.store().commit(java.util.Map.of());
        assertEquals(0, run.store().pendingCommands());
        assertEquals(1, run.store().batchesWritten());
        assertEquals(19L, run.store().committedOffset(new TopicPartition("journal", 0)));
    }
}
