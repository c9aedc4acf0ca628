package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.DeterminismTest;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.model.Offset;
import io.quire.node.error.RegistryException;
import io.quire.node.view.apply.ApplyListener;
import io.quire.node.view.apply.ApplyProcessor;
import io.quire.node.view.apply.ApplyTimings;
import io.quire.node.view.apply.JournalTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The search index filed later (a catch-up keeps each new content's and subject's terms as one
 * bundle; the store files them in batches once it serves) leaves the same bytes as the index filed
 * in each command's group and as the offline applier's ({@link InMemoryKv}); until it is complete a
 * search is refused, never answered from half an index; kept bundles survive a restart.
 */
class DeferredIndexTest {

    private final List<ViewStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(ViewStore::close);
    }

    @Test
    void filedLaterTheIndexHasTheBytesOfOneFiledInItsGroups() throws Exception {
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(13));
        String expected = offline(journal);

        Path dir = Files.createTempDirectory("quire-deferred");
        ViewStore store = standalone(dir);
        store.catchUp().filingBatch(7); // several batches, so lists and dictionary keys span them
        ApplyProcessor catchUp = processor(store);
        int split = journal.size() * 2 / 3;
        store.catchUp().unlogged(true);
        store.catchUp().deferIndex();
        apply(catchUp, journal, 0, split);
        store.catchUp().unlogged(false);
        assertTrue(kept(store) > 10, "the catch-up kept bundles instead of filing them");
        assertEquals(kept(store), store.searchIndexKept(), "a key per command");
        assertEquals(0, indexKeys(store), "and filed nothing");
        RegistryException refused = assertThrows(RegistryException.class, () -> search(store));
        assertEquals(503, refused.error().httpStatus, "a search before the index is complete is refused");

        store.init(GroupCommitTest.context(dir), store); // Streams takes the store: filing starts
        apply(catchUp, journal, split, journal.size()); // while it files, as Streams goes on
        assertEquals(expected, ViewDigest.of(new StoreKv(store)), "once filed, the view of the offline applier");
        assertEquals(0, kept(store), "every kept bundle deleted with what it filed");
        assertEquals(0, store.searchIndexKept());
        search(store); // answered now
    }

    @Test
    void keptBundlesSurviveARestartAndAreFiledWhenTheStoreServes() throws Exception {
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(17));
        String expected = offline(journal);

        Path dir = Files.createTempDirectory("quire-deferred");
        ViewStore first = standalone(dir);
        first.catchUp().unlogged(true);
        first.catchUp().deferIndex();
        apply(processor(first), journal, 0, journal.size() / 2);
        first.catchUp().unlogged(false);
        first.close(); // stopped before it served: nothing filed
        stores.remove(first);

        ViewStore second = new ViewStore(JournalTopology.STORE, GroupCommit.DEFAULT, Tuning.DEFAULT);
        stores.add(second);
        second.init(GroupCommitTest.context(dir), second); // reopened by Streams: it finds the kept bundles
        apply(processor(second), journal, journal.size() / 2, journal.size());
        assertEquals(expected, ViewDigest.of(new StoreKv(second)));
        assertEquals(0, kept(second));
    }

    @Test
    void withoutACatchUpEveryBundleIsFiledInItsGroup() throws Exception {
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(19));
        Path dir = Files.createTempDirectory("quire-deferred");
        ViewStore store = new ViewStore(JournalTopology.STORE,
                new GroupCommit(50, Long.MAX_VALUE, Duration.ofHours(1)), Tuning.DEFAULT);
        stores.add(store);
        store.init(GroupCommitTest.context(dir), store);
        apply(processor(store), journal, 0, journal.size());
        store.flush();
        assertEquals(0, kept(store));
        assertTrue(indexKeys(store) > 10);
        assertEquals(offline(journal), ViewDigest.of(new StoreKv(store)));
    }

    /** The view the offline applier builds of the journal: every bundle expanded as it comes. */
    private static String offline(List<Envelope> journal) {
        InMemoryKv kv = new InMemoryKv();
        Applier applier = new Applier();
        for (int i = 0; i < journal.size(); i++) {
            ApplyResult r = applier.apply(new RegistryView(kv), Offset.of(i), journal.get(i));
            if (!r.alreadyApplied()) {
                kv.apply(r.changes());
            }
        }
        return ViewDigest.of(kv);
    }

    private ViewStore standalone(Path dir) {
        ViewStore store = new ViewStore(JournalTopology.STORE, GroupCommit.DEFAULT, Tuning.DEFAULT);
        store.openStandalone(dir.toFile(), true);
        stores.add(store);
        return store;
    }

    private static ApplyProcessor processor(ViewStore store) {
        ApplyProcessor p = new ApplyProcessor(JournalTopology.STORE, ApplyListener.NONE, false, new AtomicLong(),
                new ApplyTimings());
        p.open(store);
        return p;
    }

    private static void apply(ApplyProcessor p, List<Envelope> journal, int from, int to) {
        for (int i = from; i < to; i++) {
            p.apply(i, JournalCodec.encode(journal.get(i)));
        }
    }

    /** Bundles the store keeps, read past the search's gate (RocksDB directly). */
    private static int kept(ViewStore store) {
        return count(store, (byte) 'O');
    }

    private static int indexKeys(ViewStore store) {
        return count(store, (byte) 'Q') + count(store, (byte) 'q');
    }

    private static int count(ViewStore store, byte first) {
        store.flush();
        AtomicInteger n = new AtomicInteger();
        try (var it = store.prefixScan(new byte[] {first}, (topic, p) -> p)) {
            it.forEachRemaining(kv -> n.incrementAndGet());
        }
        return n.get();
    }

    private static void search(ViewStore store) {
        new StoreKv(store).scan(new byte[] {'Q', 'f'}, (k, v) -> false);
    }
}
