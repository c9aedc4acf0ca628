package io.quire.journal;

import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.SetFollow;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaType;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.FollowSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Following another registry's log: each source record once, in order, and nothing else written meanwhile. */
class FollowRulesTest {

    static final String SOURCE = "confluent:kafka:9092/_schemas";
    final ReplayedJournal journal = new ReplayedJournal();
    long envelopes;

    Outcome copied(long sourceOffset, Command c) {
        return journal.append(Envelope.of(CommandId.of("c" + envelopes++), "n1", Principal.of("follower"), 0L, c)
                .from(new Envelope.Source(SOURCE, sourceOffset)));
    }

    static ImportSchema imported(String subject, long id, int version, String schema) {
        return new ImportSchema(s(subject), SchemaType.AVRO, schema, List.of(), Fingerprint.parse("fp-" + schema), id(id), v(version));
    }

    @Test
    void copiedRecordsApplyOnceInTheSourcesOrderAndOtherWritesAreRefused() {
        assertInstanceOf(FollowSet.class, journal.append(new SetFollow(SOURCE, true, -1)));
        assertInstanceOf(SchemaRegistered.class, copied(3, imported("orders", 7, 1, "\"string\"")));
        // the same source record again, from another node: refused, nothing changes
        Rejected dup = assertInstanceOf(Rejected.class, copied(3, imported("orders", 7, 1, "\"string\"")));
        assertTrue(dup.message().contains("applied already"), dup.message());
        // the source set a subject READONLY: kept, and the next copied import still lands
        assertFalse(assertInstanceOf(Outcome.class, copied(5, new SetMode(s("orders"), Mode.READONLY))) instanceof Rejected);
        assertInstanceOf(SchemaRegistered.class, copied(9, imported("orders", 8, 2, "[\"null\",\"string\"]")));
        assertEquals(9, journal.view().follow().orElseThrow().lastOffset());
        // a client's write while following: refused, naming the source
        Rejected ro = assertInstanceOf(Rejected.class, journal.append(new SetMode(null, Mode.READWRITE)));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, ro.error());
        assertTrue(ro.message().contains(SOURCE), ro.message());
        // id leases go on (a node's allocator keeps working)
        assertInstanceOf(BlockGranted.class, journal.append(new LeaseIdBlock("n1", "r1", 100)));

        // the cut-over: writable again, copied records refused, the source's modes bind
        assertInstanceOf(FollowSet.class, journal.append(new SetFollow(SOURCE, false, -1)));
        assertInstanceOf(Rejected.class, copied(10, imported("late", 9, 1, "\"int\"")));
        assertInstanceOf(Rejected.class, journal.append(new SetFollow(SOURCE, true, 12)),
                "a skip marker after the cut-over does not start following again");
        assertFalse(journal.view().follow().orElseThrow().following());
        assertEquals(Mode.READONLY, journal.view().config().effectiveMode(s("orders")));
        assertFalse(journal.append(new SetMode(s("orders"), Mode.READWRITE)) instanceof Rejected);
        assertTrue(journal.view().idWatermark().value() > 8, "new blocks start above the source's ids");
    }

    Outcome chained(long offset, long prevOffset, int prevPart, Command c) {
        return journal.append(Envelope.of(CommandId.of("c" + envelopes++), "n1", Principal.of("follower"), 0L, c)
                .from(new Envelope.Source(SOURCE, offset, 0).after(prevOffset, prevPart)));
    }

    @Test
    void chainedStepsApplyOnlyRightAfterTheirPredecessorSoNothingPassesARefusedOne() {
        journal.append(new SetFollow(SOURCE, true, -1));
        assertInstanceOf(SchemaRegistered.class, chained(0, -1, io.quire.journal.view.FollowState.WHOLE_RECORD,
                imported("a", 1, 1, "\"string\"")));
        // record 1 is refused (its id is taken by other content), so 2, sent right behind it, is refused too
        assertInstanceOf(Rejected.class, chained(1, 0, 0, imported("b", 1, 1, "\"int\"")));
        Rejected broken = assertInstanceOf(Rejected.class, chained(2, 1, 0, imported("c", 3, 1, "\"long\"")));
        assertTrue(broken.message().startsWith("out of order"), broken.message());
        assertEquals(0, journal.view().follow().orElseThrow().lastOffset());
        // skipped by the operator, then 2 again, after the skip
        journal.append(new SetFollow(SOURCE, true, 1));
        assertInstanceOf(SchemaRegistered.class, chained(2, 1, io.quire.journal.view.FollowState.WHOLE_RECORD,
                imported("c", 3, 1, "\"long\"")));
    }

    @Test
    void skippedRecordsMoveThePositionAndAnotherSourceIsRefused() {
        journal.append(new SetFollow(SOURCE, true, -1));
        assertInstanceOf(FollowSet.class, journal.append(new SetFollow(SOURCE, true, 4)));
        assertInstanceOf(Rejected.class, copied(4, imported("a", 1, 1, "\"string\"")));
        assertInstanceOf(SchemaRegistered.class, copied(5, imported("a", 1, 1, "\"string\"")));
        assertInstanceOf(Rejected.class, journal.append(new SetFollow("confluent:other:9092/_schemas", true, -1)));
        Rejected other = assertInstanceOf(Rejected.class, journal.append(Envelope.of(CommandId.of("x"), "n1", null, 0L,
                imported("c", 3, 1, "\"long\"")).from(new Envelope.Source("confluent:other:9092/_schemas", 7))));
        assertTrue(other.message().contains("does not follow"), other.message());
    }
}
