package io.quire.journal;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.RegisterVersions;
import io.quire.journal.command.RegisterVersions.Member;
import io.quire.journal.command.SetConfig;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaType;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.VersionsRegistered;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.VersionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A subject's new versions as one record (RegisterVersions): all in order, or none. No broker. */
class VersionRulesTest {

    ReplayedJournal journal;

    @BeforeEach
    void leaseABlockAndRegisterVersionOne() {
        journal = new ReplayedJournal();
        journal.append(new LeaseIdBlock("n1", "r1", 1000));
        journal.append(register("orders", "\"v1\"", 1, -1));
    }

    static RegisterSchema register(String subject, String content, long proposedId, long revision) {
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp-" + content),
                id(proposedId), CompatibilityLevel.BACKWARD, at(revision));
    }

    /** Members for versions 2, 3 and 4 of orders: the first checked against the subject now, the rest against this record. */
    List<Member> threeMembers() {
        long revision = journal.view().revision(s("orders")).value();
        return List.of(new Member(Principal.of("ann"), register("orders", "\"v2\"", 2, revision)),
                new Member(Principal.of("bob"), register("orders", "\"v3\"", 3, Offset.THIS_RECORD.value())),
                new Member(null, register("orders", "\"v4\"", 4, Offset.THIS_RECORD.value())));
    }

    List<String> versions(ReplayedJournal j) {
        return j.view().versions(s("orders")).stream().map(VersionRecord::toString).map(r -> r.replaceAll(
                "registeredAt=\\d+", "")).toList();
    }

    @Test
    void aGroupRegistersEveryMemberInOrderAsSeparateRecordsWould() {
        VersionsRegistered done = assertInstanceOf(VersionsRegistered.class,
                journal.append(new RegisterVersions(s("orders"), threeMembers())));
        assertEquals(List.of(new SchemaRegistered(id(2), v(2), true), new SchemaRegistered(id(3), v(3), true),
                new SchemaRegistered(id(4), v(4), true)), done.versions());

        ReplayedJournal oneByOne = new ReplayedJournal();
        oneByOne.append(new LeaseIdBlock("n1", "r1", 1000));
        oneByOne.append(register("orders", "\"v1\"", 1, -1));
        for (int i = 2; i <= 4; i++) {
            long revision = oneByOne.view().revision(s("orders")).value();
            assertInstanceOf(SchemaRegistered.class, oneByOne.append(register("orders", "\"v" + i + "\"", i, revision)));
        }
        assertEquals(versions(oneByOne), versions(journal));
        for (int i = 1; i <= 4; i++) {
            assertEquals(oneByOne.view().schemaBytes(s("orders").context(), id(i)) == null,
                    journal.view().schemaBytes(s("orders").context(), id(i)) == null);
            assertEquals("\"v" + i + "\"", journal.view().schemaOf(s("orders"), journal.view().version(s("orders"), v(i)).orElseThrow()).orElseThrow().schema());
        }
        assertEquals(journal.view().revision(s("orders")), Offset.of(journal.records().size() - 1),
                "the subject's revision is the group's record");
    }

    @Test
    void everyMemberHasAnAuditEntryWithItsOwnPrincipal() {
        Envelope e = Envelope.of(io.quire.journal.command.CommandId.of("g-1"), "n1", Principal.of("ann"), 5L,
                new RegisterVersions(s("orders"), threeMembers()));
        Offset at = Offset.of(journal.records().size());
        journal.append(e);
        List<AuditEntry> trail = new ArrayList<>();
        journal.view().audit().audit(at, trail::add);
        assertEquals(List.of("RegisterVersions orders VersionsRegistered ann", "RegisterSchema orders SchemaRegistered ann",
                        "RegisterSchema orders SchemaRegistered bob", "RegisterSchema orders SchemaRegistered ann"),
                trail.stream().map(t -> t.command() + " " + t.subject() + " " + t.outcome() + " " + t.principal()).toList());
        assertEquals(trail.get(2), AuditEntry.decode(at, trail.get(2).encode()));
    }

    @Test
    void aGroupWhoseSubjectMovedIsAConflictAndWritesNothing() {
        List<Member> members = threeMembers();
        journal.append(register("orders", "\"other\"", 9, journal.view().revision(s("orders")).value()));
        List<String> before = versions(journal);
        Conflict c = assertInstanceOf(Conflict.class, journal.append(new RegisterVersions(s("orders"), members)));
        assertTrue(c.reason().startsWith("member 1 of 3 of subject 'orders' is not the new version"), c.reason());
        assertEquals(before, versions(journal));
        assertTrue(journal.view().schemaBytes(s("orders").context(), id(2)) == null, "nothing of the group was written");
    }

    @Test
    void aLaterMemberWhoseContentIsThereAlreadyMakesTheGroupAConflict() {
        long revision = journal.view().revision(s("orders")).value();
        Conflict c = assertInstanceOf(Conflict.class, journal.append(new RegisterVersions(s("orders"), List.of(
                new Member(null, register("orders", "\"v2\"", 2, revision)),
                new Member(null, register("orders", "\"v1\"", 3, Offset.THIS_RECORD.value()))))));
        assertTrue(c.reason().contains("member 2 of 2") && c.reason().contains("version 1 already"), c.reason());
        assertEquals(1, journal.view().versions(s("orders")).size());
    }

    @Test
    void aLevelChangedSinceTheNodeDecidedMakesTheGroupAConflict() {
        List<Member> members = threeMembers();
        journal.append(new SetConfig(s("orders"), CompatibilityLevel.FULL));
        assertInstanceOf(Conflict.class, journal.append(new RegisterVersions(s("orders"), members)));
        assertEquals(1, journal.view().versions(s("orders")).size());
    }

    @Test
    void aMemberOfAnotherSubjectOrAGroupOfOneIsRefused() {
        long revision = journal.view().revision(s("orders")).value();
        Rejected other = assertInstanceOf(Rejected.class, journal.append(new RegisterVersions(s("orders"), List.of(
                new Member(null, register("orders", "\"v2\"", 2, revision)),
                new Member(null, register("payments", "\"p1\"", 3, -1))))));
        assertEquals(ErrorCode.UNPROCESSABLE, other.error());
        assertTrue(journal.view().subject(s("payments")).isEmpty());
        Rejected one = assertInstanceOf(Rejected.class, journal.append(new RegisterVersions(s("orders"), List.of(
                new Member(null, register("orders", "\"v2\"", 2, revision))))));
        assertEquals(ErrorCode.UNPROCESSABLE, one.error());
        assertEquals(1, journal.view().versions(s("orders")).size());
    }

    @Test
    void aSingleRegistrationCheckedAgainstThisRecordIsAConflict() {
        assertInstanceOf(Conflict.class, journal.append(register("orders", "\"v2\"", 2, Offset.THIS_RECORD.value())));
        assertEquals(1, journal.view().versions(s("orders")).size());
    }

    @Test
    void replayingAGroupGivesTheSameViewAndDigest() {
        journal.append(new RegisterVersions(s("orders"), threeMembers()));
        ReplayedJournal again = new ReplayedJournal();
        for (Envelope e : journal.records()) {
            again.append(e);
        }
        assertEquals(journal.view().position(), again.view().position());
        assertEquals(Map.copyOf(ChangeSetRulesTest.registryKeys(journal.kv())),
                Map.copyOf(ChangeSetRulesTest.registryKeys(again.kv())));
    }
}
