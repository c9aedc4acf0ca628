package io.quire.journal;

import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.ImportSchemas;
import io.quire.journal.command.SetFollow;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.VersionsRegistered;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.FollowState;
import io.quire.journal.view.VersionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A follower's run of copied schema versions as one record: what the same records one at a time leave, or nothing. */
class ImportSchemasTest {

    static final String SOURCE = "confluent:kafka:9092/_schemas";
    long envelopes;

    static ImportSchema imported(String subject, long id, int version, String schema) {
        return new ImportSchema(s(subject), SchemaType.AVRO, schema, List.of(), Fingerprint.parse("fp-" + schema), id(id),
                v(version));
    }

    static ReplayedJournal following() {
        ReplayedJournal j = new ReplayedJournal();
        j.append(new SetFollow(SOURCE, true, -1));
        return j;
    }

    Outcome run(ReplayedJournal j, long prevOffset, int prevPart, List<ImportSchemas.Copied> copied) {
        long last = copied.isEmpty() ? prevOffset + 1 : copied.get(copied.size() - 1).sourceOffset();
        return send(j, new ImportSchemas(copied), new Envelope.Source(SOURCE, last, 0).after(prevOffset, prevPart));
    }

    Outcome send(ReplayedJournal j, Command c, Envelope.Source source) {
        Envelope e = Envelope.of(CommandId.of("c" + envelopes++), "n1", Principal.of("follower"), 0L, c);
        return j.append(source == null ? e : e.from(source));
    }

    /**
     * A source log drawn at random (seeded): new versions of a few subjects, some repeating content
     * another subject holds (the same id), at offsets with gaps (records that copy nothing).
     */
    static List<ImportSchemas.Copied> sourceLog(long seed, int records) {
        Random random = new Random(seed);
        int[] versions = new int[6];
        List<String> contents = new ArrayList<>();
        List<ImportSchemas.Copied> log = new ArrayList<>();
        long offset = 0;
        for (int i = 0; i < records; i++) {
            offset += 1 + random.nextInt(3);
            int subject = random.nextInt(versions.length);
            String schema;
            long id;
            if (!contents.isEmpty() && random.nextInt(4) == 0) {
                int k = random.nextInt(contents.size()); // content another subject holds: its id
                schema = contents.get(k);
                id = 100 + k;
            } else {
                schema = "\"s" + contents.size() + "\"";
                id = 100 + contents.size();
                contents.add(schema);
            }
            boolean held = false;
            for (ImportSchemas.Copied c : log) {
                held |= c.schema().subject().equals(s("subject-" + subject)) && c.schema().schema().equals(schema);
            }
            if (held) {
                continue; // a subject does not take the same content twice
            }
            log.add(new ImportSchemas.Copied(offset, imported("subject-" + subject, id, ++versions[subject], schema)));
        }
        return log;
    }

    /** Every subject's versions (number, id, text) and the follow position: what a reader sees. */
    static TreeMap<String, List<String>> seen(ReplayedJournal j) {
        TreeMap<String, List<String>> seen = new TreeMap<>();
        for (int i = 0; i < 6; i++) {
            Subject subject = s("subject-" + i);
            List<String> versions = new ArrayList<>();
            for (VersionRecord r : j.view().versions(subject)) {
                versions.add(r.version() + " " + r.schemaId() + " " + r.deleted() + " "
                        + j.view().schemaOf(subject, r).orElseThrow().schema());
            }
            seen.put(subject.name(), versions);
        }
        FollowState f = j.view().follow().orElseThrow();
        seen.put("(follow)", List.of(f.lastOffset() + "/" + f.lastPart(), j.view().idWatermark().toString()));
        return seen;
    }

    @Test
    void runsLeaveWhatTheSameRecordsOneAtATimeLeave() {
        for (long seed = 1; seed <= 20; seed++) {
            List<ImportSchemas.Copied> log = sourceLog(seed, 40);
            ReplayedJournal oneByOne = following();
            for (ImportSchemas.Copied c : log) {
                assertInstanceOf(SchemaRegistered.class, send(oneByOne, c.schema(),
                        new Envelope.Source(SOURCE, c.sourceOffset(), 0)), "seed " + seed);
            }
            ReplayedJournal inRuns = following();
            Random cut = new Random(seed);
            long tip = -1;
            int tipPart = FollowState.WHOLE_RECORD;
            for (int from = 0; from < log.size(); ) {
                int to = Math.min(log.size(), from + 1 + cut.nextInt(12));
                List<ImportSchemas.Copied> part = log.subList(from, to);
                VersionsRegistered done = assertInstanceOf(VersionsRegistered.class, run(inRuns, tip, tipPart, part),
                        "seed " + seed);
                assertEquals(part.size(), done.versions().size());
                tip = part.get(part.size() - 1).sourceOffset();
                tipPart = 0;
                from = to;
            }
            assertEquals(seen(oneByOne), seen(inRuns), "seed " + seed);
        }
    }

    @Test
    void oneImportThatCannotBeAppliedRefusesTheRunNamingItsSourceRecordAndWritesNothing() {
        ReplayedJournal j = following();
        assertInstanceOf(VersionsRegistered.class, run(j, -1, FollowState.WHOLE_RECORD, List.of(
                new ImportSchemas.Copied(0, imported("a", 100, 1, "\"string\"")))));
        // record 4 gives id 100 to other content: the import the applier refuses one at a time too
        Rejected r = assertInstanceOf(Rejected.class, run(j, 0, 0, List.of(
                new ImportSchemas.Copied(2, imported("b", 101, 1, "\"int\"")),
                new ImportSchemas.Copied(4, imported("c", 100, 1, "\"long\"")),
                new ImportSchemas.Copied(5, imported("d", 102, 1, "\"float\"")))));
        assertTrue(r.message().startsWith("source record 4 of " + SOURCE + ": "), r.message());
        ReplayedJournal single = following();
        send(single, imported("a", 100, 1, "\"string\""), new Envelope.Source(SOURCE, 0, 0));
        Rejected same = assertInstanceOf(Rejected.class, send(single, imported("c", 100, 1, "\"long\""),
                new Envelope.Source(SOURCE, 4, 0)));
        assertEquals(same.error(), r.error(), "the error the import gets on its own");
        assertTrue(j.view().versions(s("b")).isEmpty(), "nothing of the run is written");
        assertTrue(j.view().versions(s("d")).isEmpty());
        assertEquals(0, j.view().follow().orElseThrow().lastOffset(), "the follower's position stays");
        // what comes after it in the chain is refused too, until the follower sends from the tip again
        Rejected broken = assertInstanceOf(Rejected.class, run(j, 5, 0, List.of(
                new ImportSchemas.Copied(6, imported("e", 103, 1, "\"double\"")))));
        assertTrue(broken.message().startsWith("out of order"), broken.message());
        assertInstanceOf(VersionsRegistered.class, run(j, 0, 0, List.of(
                new ImportSchemas.Copied(2, imported("b", 101, 1, "\"int\"")))));
    }

    @Test
    void aRunNeedsASourceRisingOffsetsEndingAtItsPositionAndAtMostTheLimit() {
        ReplayedJournal j = following();
        ImportSchemas one = new ImportSchemas(List.of(new ImportSchemas.Copied(3, imported("a", 100, 1, "\"string\""))));
        Rejected noSource = assertInstanceOf(Rejected.class, send(j, one, null));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, noSource.error(), noSource.message());
        assertEquals(ErrorCode.UNPROCESSABLE, assertInstanceOf(Rejected.class,
                send(j, one, new Envelope.Source(SOURCE, 4, 0))).error(), "its last offset is not the record's");
        assertEquals(ErrorCode.UNPROCESSABLE, assertInstanceOf(Rejected.class, run(j, -1, FollowState.WHOLE_RECORD,
                List.of())).error(), "empty");
        assertEquals(ErrorCode.UNPROCESSABLE, assertInstanceOf(Rejected.class, run(j, -1, FollowState.WHOLE_RECORD,
                List.of(new ImportSchemas.Copied(3, imported("a", 100, 1, "\"string\"")),
                        new ImportSchemas.Copied(3, imported("b", 101, 1, "\"int\""))))).error(), "offsets rise");
        List<ImportSchemas.Copied> tooMany = new ArrayList<>();
        for (int i = 0; i <= ImportSchemas.MAX_SCHEMAS; i++) {
            tooMany.add(new ImportSchemas.Copied(i, imported("a" + i, 100 + i, 1, "\"s" + i + "\"")));
        }
        assertEquals(ErrorCode.UNPROCESSABLE, assertInstanceOf(Rejected.class, run(j, -1, FollowState.WHOLE_RECORD,
                tooMany)).error());
        assertTrue(j.view().versions(s("a")).isEmpty());
        assertInstanceOf(VersionsRegistered.class, run(j, -1, FollowState.WHOLE_RECORD,
                tooMany.subList(0, ImportSchemas.MAX_SCHEMAS)));
    }

    @Test
    void everyImportOfARunHasAnAuditEntry() {
        ReplayedJournal j = following();
        Offset at = Offset.of(j.records().size());
        run(j, -1, FollowState.WHOLE_RECORD, List.of(new ImportSchemas.Copied(0, imported("a", 100, 1, "\"string\"")),
                new ImportSchemas.Copied(1, imported("b", 100, 1, "\"string\""))));
        List<AuditEntry> trail = new ArrayList<>();
        j.view().audit().audit(at, trail::add);
        assertEquals(List.of("ImportSchemas null VersionsRegistered follower", "ImportSchema a SchemaRegistered follower",
                        "ImportSchema b SchemaRegistered follower"),
                trail.stream().map(t -> t.command() + " " + t.subject() + " " + t.outcome() + " " + t.principal()).toList());
        assertEquals(trail.get(2), AuditEntry.decode(at, trail.get(2).encode()));
    }
}
