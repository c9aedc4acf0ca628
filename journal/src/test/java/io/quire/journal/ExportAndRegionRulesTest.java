package io.quire.journal;

import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.command.CommandId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Command;
import io.quire.journal.command.ControlExporter;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ExporterProgress;
import io.quire.journal.command.TakeLease;
import io.quire.journal.model.TaskLease;
import io.quire.journal.outcome.LeaseTaken;
import io.quire.journal.view.LeaseReads;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.Promote;
import io.quire.journal.command.PutExporter;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Exporter;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.ExporterChanged;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Promoted;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.ExporterReads;
import io.quire.journal.view.RegionState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An exporter's lease decided in journal order by the records' own time; a promotion that fences older epochs. */
class ExportAndRegionRulesTest {

    final ReplayedJournal journal = new ReplayedJournal();
    long n;

    Outcome at(long time, Command c) {
        return journal.append(Envelope.of(CommandId.of("c" + n++), "n", Principal.of("p"), time, c));
    }

    Exporter dr() {
        return ExporterReads.exporter(journal.view(), "dr").orElseThrow();
    }

    static ErrorCode code(Outcome o) {
        return assertInstanceOf(Rejected.class, o).error();
    }

    @Test
    void oneNodeHoldsTheLeaseUntilItExpiresAndAResetStopsTheOldGeneration() {
        PutExporter create = new PutExporter("dr", true, null, null, List.of("orders-*"), null,
                Map.of("schema.registry.url", "http://b:8081"));
        assertInstanceOf(ExporterChanged.class, at(0, create));
        assertEquals(ErrorCode.EXPORTER_EXISTS, code(at(0, create)));
        assertEquals(ErrorCode.INVALID_EXPORTER_CONFIG, code(at(0, new PutExporter("x", true, null, null, null, null,
                Map.of()))));
        assertEquals("AUTO", dr().contextType());
        assertTrue(dr().covers("orders-1") && !dr().covers("payments"));

        assertInstanceOf(ExporterChanged.class, at(1_000, new ExporterProgress("dr", "n1", 0, 3_000, null, null)));
        assertEquals("n1", dr().runner());
        assertEquals(4_000, dr().leaseUntil());
        // n2 claims while n1's lease runs: refused; n1 renews and records its offset
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(3_999, new ExporterProgress("dr", "n2", 0, 3_000, null, null))));
        assertInstanceOf(ExporterChanged.class, at(3_000, new ExporterProgress("dr", "n1", 0, 3_000, Offset.of(41L), null)));
        assertEquals(41, dr().offset().value());
        // n1 stops renewing: once its lease is past, n2's claim wins and keeps the recorded offset
        assertInstanceOf(ExporterChanged.class, at(6_000, new ExporterProgress("dr", "n2", 0, 3_000, null, null)));
        assertEquals("n2", dr().runner());
        assertEquals(41, dr().offset().value());
        // n1 comes back and tries to record: refused, the lease is n2's
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(6_100, new ExporterProgress("dr", "n1", 0, 3_000, Offset.of(90L), null))));
        assertEquals(41, dr().offset().value());

        assertEquals(ErrorCode.EXPORTER_NOT_PAUSED, code(at(7_000, new ControlExporter("dr", ControlExporter.RESET))));
        assertInstanceOf(ExporterChanged.class, at(7_000, new ControlExporter("dr", ControlExporter.PAUSE)));
        assertNull(dr().runner());
        assertEquals(ErrorCode.EXPORTER_NOT_RUNNING, code(at(7_000, new ControlExporter("dr", ControlExporter.PAUSE))));
        assertInstanceOf(ExporterChanged.class, at(7_000, new ControlExporter("dr", ControlExporter.RESET)));
        assertEquals(-1, dr().offset().value());
        assertEquals(1, dr().generation());
        assertInstanceOf(ExporterChanged.class, at(7_000, new ControlExporter("dr", ControlExporter.RESUME)));
        // a runner of generation 0 is refused; generation 1 starts from the start
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(8_000, new ExporterProgress("dr", "n2", 0, 3_000, Offset.of(41L), null))));
        assertInstanceOf(ExporterChanged.class, at(8_000, new ExporterProgress("dr", "n2", 1, 3_000, null, null)));
        // giving the lease up frees it at once
        assertInstanceOf(ExporterChanged.class, at(8_100, new ExporterProgress("dr", "n2", 1, 0, Offset.of(5L), null)));
        assertNull(dr().runner());
        assertInstanceOf(ExporterChanged.class, at(8_200, new ExporterProgress("dr", "n1", 1, 3_000, null, null)));
        assertEquals(5, dr().offset().value());
    }

    TaskLease lease(String name) {
        return LeaseReads.lease(journal.view(), name).orElseThrow();
    }

    @Test
    void aTaskLeaseGoesToOneNodeUntilItExpiresOrIsGivenUp() {
        LeaseTaken first = assertInstanceOf(LeaseTaken.class, at(1_000, new TakeLease("schemas", "n1", 3_000)));
        assertEquals("n1", first.holder());
        assertEquals(4_000, first.until());
        assertTrue(lease("schemas").heldBy("n1", 3_999) && !lease("schemas").heldBy("n1", 4_000));
        // another node is refused while it runs; the holder renews
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(3_999, new TakeLease("schemas", "n2", 3_000))));
        assertInstanceOf(LeaseTaken.class, at(3_500, new TakeLease("schemas", "n1", 3_000)));
        assertEquals(6_500, lease("schemas").until());
        // the holder stops renewing: past the lease, the next claim in journal order wins
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(6_499, new TakeLease("schemas", "n2", 3_000))));
        assertEquals("n2", assertInstanceOf(LeaseTaken.class, at(6_500, new TakeLease("schemas", "n2", 3_000))).holder());
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(6_600, new TakeLease("schemas", "n1", 3_000))));
        // given up, it is free at once; leases of other tasks are their own
        assertNull(assertInstanceOf(LeaseTaken.class, at(7_000, new TakeLease("schemas", "n2", 0))).holder());
        assertInstanceOf(LeaseTaken.class, at(7_001, new TakeLease("schemas", "n1", 3_000)));
        assertInstanceOf(LeaseTaken.class, at(7_001, new TakeLease("other", "n2", 3_000)));
        assertEquals("n1", lease("schemas").holder());
        assertEquals(ErrorCode.UNPROCESSABLE, code(at(7_002, new TakeLease("", "n1", 3_000))));
        assertEquals(ErrorCode.UNPROCESSABLE, code(at(7_002, new TakeLease("x", "n1", -1))));
    }

    @Test
    void aPromotionFencesRecordsOfTheOldEpochAndGrantsIdsAboveTheFloor() {
        assertInstanceOf(ExporterChanged.class, at(0, new PutExporter("dr", true, null, null, null, null,
                Map.of("schema.registry.url", "http://b:8081"))));
        assertInstanceOf(ExporterChanged.class, at(0, new ExporterProgress("dr", "a1", 0, 10_000, Offset.of(30L), null)));
        BlockGranted first = assertInstanceOf(BlockGranted.class, at(0, new LeaseIdBlock("a1", "r1", 100)));
        assertEquals(1, first.start());
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, code(at(0, new Promote("b", 2, 0))));
        Promoted p = assertInstanceOf(Promoted.class, at(0, new Promote("b", 1, 5_000)));
        assertEquals(5_000, p.nextId());
        assertEquals(new RegionState("b", 1), RegionState.of(journal.view()));
        // the exporter's offset was region a's: it starts again, and region b's nodes may take it
        assertEquals(-1, dr().offset().value());
        assertNull(dr().runner());
        // a record the old primary wrote at epoch 0, mirrored late: refused, it grants nothing
        Rejected fenced = assertInstanceOf(Rejected.class, at(0, new LeaseIdBlock("a1", "r2", 100)));
        assertTrue(fenced.message().contains("fenced"), fenced.message());
        BlockGranted next = assertInstanceOf(BlockGranted.class, journal.append(
                Envelope.of(CommandId.of("c" + n++), "b1", Principal.of("p"), 0, new LeaseIdBlock("b1", "r3", 100)).atEpoch(1)));
        assertEquals(5_000, next.start());
        // a promotion back to the old region needs the next epoch, and keeps the watermark
        Promoted back = assertInstanceOf(Promoted.class, journal.append(
                Envelope.of(CommandId.of("c" + n++), "a1", Principal.of("p"), 0, new Promote("a", 2, 0)).atEpoch(1)));
        assertEquals(5_100, back.nextId());
    }
}
