package io.quire.node.view.apply;

import io.quire.journal.model.Principal;
import io.quire.journal.command.CommandId;
import io.quire.node.view.store.StoreKv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.DeterminismTest;
import io.quire.journal.apply.Applier;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewDigest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The production topology on {@link TopologyTestDriver}: no broker, the real store and applier. */
class JournalTopologyTest {

    static final String TOPIC = "journal";

    TopologyTestDriver driver;
    final List<Outcome> outcomes = new ArrayList<>();
    final AtomicLong skipped = new AtomicLong();

    TestInputTopic<byte[], byte[]> start(boolean skipCorrupt) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "topology-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("quire-ttd").toString());
        driver = new TopologyTestDriver(
                JournalTopology.build(TOPIC, (offset, env, outcome) -> outcomes.add(outcome), skipCorrupt, skipped), p);
        return driver.createInputTopic(TOPIC, new ByteArraySerializer(), new ByteArraySerializer());
    }

    RegistryView view() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(JournalTopology.STORE);
        return new RegistryView(new StoreKv(store));
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    static byte[] key(Envelope e) {
        return e.commandId().value().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRandomJournalThroughTheTopologyEqualsAnInMemoryReplay() throws Exception {
        TestInputTopic<byte[], byte[]> in = start(false);
        List<Envelope> journal = DeterminismTest.randomJournal(new Random(7));
        for (Envelope e : journal) {
            in.pipeInput(key(e), JournalCodec.encode(e));
        }
        InMemoryKv expected = new InMemoryKv();
        RegistryView expectedView = new RegistryView(expected);
        Applier applier = new Applier();
        for (int i = 0; i < journal.size(); i++) {
            expected.apply(applier.apply(expectedView, Offset.of(i), journal.get(i)).changes());
        }
        assertEquals(journal.size(), outcomes.size());
        assertEquals(expectedView.position(), view().position());
        assertEquals(ViewDigest.of(expected), ViewDigest.of(view().kv()));
    }

    @Test
    void anUnreadableRecordStopsTheViewByDefault() throws Exception {
        TestInputTopic<byte[], byte[]> in = start(false);
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> in.pipeInput("k".getBytes(StandardCharsets.UTF_8), "{garbage".getBytes(StandardCharsets.UTF_8)));
        assertTrue(causes(e, CorruptRecordException.class), () -> "expected a corrupt-record failure, got " + e);
        assertEquals(0, outcomes.size());
        assertEquals(-1, view().position().offset().value());
    }

    static boolean causes(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void withSkippingOnAnUnreadableRecordIsACountedRejectionAndTheJournalGoesOn() throws Exception {
        TestInputTopic<byte[], byte[]> in = start(true);
        in.pipeInput("k".getBytes(StandardCharsets.UTF_8), "{garbage".getBytes(StandardCharsets.UTF_8));
        Envelope lease = Envelope.of(CommandId.of("c1"), "n1", Principal.of("p"), 1, new LeaseIdBlock("n1", "r1", 10));
        in.pipeInput(key(lease), JournalCodec.encode(lease));
        assertEquals(1, skipped.get());
        assertEquals(ErrorCode.STORE_ERROR, ((Rejected) outcomes.get(0)).error());
        assertInstanceOf(BlockGranted.class, outcomes.get(1));
        assertEquals(1, view().position().offset().value());
        assertEquals(11, view().idWatermark().value());
    }
}
