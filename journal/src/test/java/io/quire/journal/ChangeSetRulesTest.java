package io.quire.journal;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.ApplyChangeSet;
import io.quire.journal.command.ApplyChangeSet.Expected;
import io.quire.journal.command.ApplyChangeSet.Step;
import io.quire.journal.command.Command;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.ChangeSetApplied;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A change set of many subjects applied as one record: all of it or nothing. No broker. */
class ChangeSetRulesTest {

    ReplayedJournal journal;

    @BeforeEach
    void leaseABlock() {
        journal = new ReplayedJournal();
        journal.append(new LeaseIdBlock("n1", "r1", 1000));
    }

    static RegisterSchema register(String subject, String content, long proposedId, long revision,
                                   SchemaReference... refs) {
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, List.of(refs), Fingerprint.parse("fp-" + content),
                id(proposedId), CompatibilityLevel.BACKWARD, at(revision));
    }

    static ApplyChangeSet set(List<Expected> expect, Command... steps) {
        return new ApplyChangeSet("c-1", "add the order subjects", expect,
                Arrays.stream(steps).map(Step::of).toList());
    }

    /** Every key of the view but the position and the audit trail. */
    static Map<String, String> registryKeys(InMemoryKv kv) {
        Map<String, String> out = new TreeMap<>();
        kv.scan(new byte[0], (k, val) -> {
            if (!Arrays.equals(k, Keys.POSITION) && k[0] != 'A') {
                out.put(Arrays.toString(k), Arrays.toString(val));
            }
            return true;
        });
        return out;
    }

    @Test
    void twentySubjectsWhoseFifteenthIsRefusedLandNothing() {
        journal.append(register("s15", "\"int\"", 1, -1));
        Map<String, String> before = registryKeys(journal.kv());
        List<Command> steps = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            // the 15th checked against no version, while the subject has one: the applier refuses it
            steps.add(register("s" + i, "{\"type\":\"fixed\",\"size\":" + i + ",\"name\":\"F\"}", 100 + i, -1));
        }
        Outcome o = journal.append(set(List.of(), steps.toArray(Command[]::new)));
        Conflict c = assertInstanceOf(Conflict.class, o);
        assertTrue(c.reason().startsWith("change set c-1, step 15 of 20 (RegisterSchema, subject s15): "), c.reason());
        assertEquals(before, registryKeys(journal.kv()), "nothing of the set was written");
        assertTrue(journal.view().subject(s("s1")).isEmpty());
    }

    @Test
    void aRefusedStepRefusesTheSetWithItsCodeAndStepNamed() {
        List<Command> steps = List.of(register("a", "\"int\"", 1, -1),
                register("b", "\"long\"", 5000, -1)); // never leased
        Rejected r = assertInstanceOf(Rejected.class, journal.append(set(List.of(), steps.toArray(Command[]::new))));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, r.error());
        assertTrue(r.message().contains("step 2 of 2 (RegisterSchema, subject b)"), r.message());
        assertTrue(journal.view().subject(s("a")).isEmpty(), "the first step was not written either");
    }

    @Test
    void laterStepsSeeEarlierOnesAndEveryVersionGetsAnAuditEntryWithTheChange() {
        journal.append(register("customer", "\"int\"", 1, -1));
        long customerRevision = journal.view().revision(s("customer")).value();
        Offset at = Offset.of(journal.records().size());
        Outcome o = journal.append(set(List.of(new Expected(s("customer"), v(1)), new Expected(s("order"), null)),
                new SetConfig(s("order"), CompatibilityLevel.FULL),
                register("customer", "\"long\"", 2, customerRevision),
                // the reference names version 2 of customer, which the step before makes
                new RegisterSchema(s("order"), SchemaType.AVRO, "\"order\"", List.of(new SchemaReference("Customer",
                        s("customer"), v(2))), Fingerprint.parse("fp-order"), id(3), CompatibilityLevel.FULL, at(-1))));
        ChangeSetApplied applied = assertInstanceOf(ChangeSetApplied.class, o);
        assertEquals(new SchemaRegistered(id(2), v(2), true), applied.steps().get(1).outcome());
        assertEquals(new SchemaRegistered(id(3), v(1), true), applied.steps().get(2).outcome());
        assertEquals(CompatibilityLevel.FULL, journal.view().config().effectiveLevel(s("order")));
        assertEquals(List.of(id(3)), journal.view().usages().referencedBy(s("customer"), v(2)));

        List<AuditEntry> trail = new ArrayList<>();
        journal.view().audit().audit(at, trail::add);
        assertEquals(4, trail.size(), "the set's own entry and one per step");
        assertEquals("ApplyChangeSet", trail.get(0).command());
        for (AuditEntry e : trail) {
            assertEquals(at, e.offset());
            assertEquals("c-1", e.changeId());
            assertEquals("add the order subjects", e.message());
        }
        assertEquals(List.of("SetConfig order", "RegisterSchema customer", "RegisterSchema order"),
                trail.subList(1, 4).stream().map(e -> e.command() + " " + e.subject()).toList());
        assertEquals(trail.get(3), AuditEntry.decode(at, trail.get(3).encode()));
    }

    @Test
    void aSetPlannedAgainstVersionsThatMovedIsRefusedWithEverySubjectNamed() {
        journal.append(register("a", "\"int\"", 1, -1));
        Rejected r = assertInstanceOf(Rejected.class, journal.append(set(
                List.of(new Expected(s("a"), null), new Expected(s("b"), v(3))),
                register("b", "\"long\"", 2, -1))));
        assertEquals(ErrorCode.CHANGE_SET_MOVED, r.error());
        assertEquals("The registry moved since the change was planned: a (planned at no version, now version 1), "
                + "b (planned at version 3, now no version)", r.message());
        assertTrue(journal.view().subject(s("b")).isEmpty());
    }

    @Test
    void aDeleteStepAndAnEmptySetAndAStepOfTwoChanges() {
        journal.append(register("old", "\"int\"", 1, -1));
        ChangeSetApplied applied = assertInstanceOf(ChangeSetApplied.class, journal.append(set(
                List.of(new Expected(s("old"), v(1))), new DeleteSubject(s("old"), false))));
        assertEquals(1, applied.steps().size());
        assertTrue(journal.view().latestLive(s("old")).isEmpty(), "soft-deleted");
        assertEquals(ErrorCode.UNPROCESSABLE, ((Rejected) journal.append(set(List.of()))).error());
        Rejected two = (Rejected) journal.append(new ApplyChangeSet("c-2", null, List.of(),
                List.of(new Step(register("x", "\"int\"", 1, -1), new SetConfig(s("x"), CompatibilityLevel.NONE),
                        null, null))));
        assertTrue(two.message().endsWith("a step holds exactly one change"), two.message());
    }

    @Test
    void aReplayedSetGivesTheSameView() {
        journal.append(set(List.of(), register("a", "\"int\"", 1, -1), register("b", "\"long\"", 2, -1)));
        ReplayedJournal again = new ReplayedJournal();
        journal.records().forEach(again::append);
        assertEquals(journal.view().position(), again.view().position());
        assertEquals(registryKeys(journal.kv()), registryKeys(again.kv()));
        assertEquals(Version.of(1), again.view().latestLive(s("b")).orElseThrow().version());
    }
}
