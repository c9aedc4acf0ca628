package io.quire.journal;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static io.quire.journal.Values.vs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.apply.ApplyResult;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Rule;
import io.quire.journal.model.RuleKind;
import io.quire.journal.model.RuleMode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.ConfigDeleted;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.ModeDeleted;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.SubjectDeleted;
import io.quire.journal.outcome.VersionDeleted;
import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.ViewDigest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Given a journal, when a command is applied, then this outcome and this view. No broker. */
class ApplierTest {

    ReplayedJournal journal;

    @BeforeEach
    void leaseABlock() {
        journal = new ReplayedJournal();
        assertEquals(new BlockGranted(1, 100), journal.append(new LeaseIdBlock("n1", "r1", 100)));
    }

    static RegisterSchema register(String subject, String content, long proposedId, long revision) {
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp-" + content), id(proposedId),
                CompatibilityLevel.BACKWARD, at(revision));
    }

    long revision(String subject) {
        return journal.view().revision(s(subject)).value();
    }

    @Test
    void registeringNewContentTakesTheProposedIdAndVersionOne() {
        Outcome o = journal.append(register("orders", "\"string\"", 7, -1));
        assertEquals(new SchemaRegistered(id(7), v(1), true), o);
        assertEquals(journal.records().get(1).timestamp(),
                journal.view().version(s("orders"), v(1)).orElseThrow().registeredAt(), "the record's time");
        assertEquals(id(7), journal.view().ids().maxSchemaId().orElseThrow());
        journal.append(register("orders2", "\"long\"", 3, -1));
        assertEquals(id(7), journal.view().ids().maxSchemaId().orElseThrow(), "the highest, not the latest");
        assertEquals("\"string\"", journal.view().schema(Context.DEFAULT, id(7)).orElseThrow().schema());
        assertEquals(1, journal.view().subject(s("orders")).orElseThrow().liveVersions());
    }

    @Test
    void theSameContentInAnotherSubjectKeepsItsIdAndTheProposedIdStaysUnused() {
        journal.append(register("a", "\"int\"", 3, -1));
        Outcome o = journal.append(register("b", "\"int\"", 4, -1));
        assertEquals(new SchemaRegistered(id(3), v(1), true), o);
        assertTrue(journal.view().schema(Context.DEFAULT, id(4)).isEmpty());
        assertEquals(List.of(s("a"), s("b")), journal.view().usages().usages(Context.DEFAULT, id(3)).stream().map(u -> u.subject()).toList());
    }

    @Test
    void reRegisteringInTheSameSubjectReturnsTheExistingVersionAndChangesNothingButThePosition() {
        journal.append(register("a", "\"int\"", 3, -1));
        String before = withoutPosition();
        Outcome o = journal.append(register("a", "\"int\"", 5, 99));
        assertEquals(new SchemaRegistered(id(3), v(1), false), o);
        assertEquals(before, withoutPosition());
    }

    @Test
    void aStaleCompatibilityCheckIsARetryableConflict() {
        journal.append(register("a", "\"int\"", 1, -1));
        long checkedBefore = -1;
        journal.append(register("a", "\"long\"", 2, revision("a")));
        Outcome o = journal.append(register("a", "\"float\"", 3, checkedBefore));
        assertInstanceOf(Conflict.class, o);
        assertEquals(v(2), journal.view().subject(s("a")).orElseThrow().latestVersion());
    }

    @Test
    void aChangedLevelIsARetryableConflictButNoneIgnoresTheRevision() {
        journal.append(register("a", "\"int\"", 1, -1));
        journal.append(new SetConfig(s("a"), CompatibilityLevel.NONE));
        assertInstanceOf(Conflict.class, journal.append(register("a", "\"long\"", 2, revision("a"))));
        RegisterSchema none = new RegisterSchema(s("a"), SchemaType.AVRO, "\"long\"", List.of(), Fingerprint.parse("fp-long"), id(2),
                CompatibilityLevel.NONE, at(12345));
        assertEquals(new SchemaRegistered(id(2), v(2), true), journal.append(none));
    }

    @Test
    void aProposedIdOutsideEveryGrantedBlockIsRefused() {
        Outcome o = journal.append(register("a", "\"int\"", 500, -1));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, ((Rejected) o).error());
    }

    @Test
    void aTakenProposedIdIsARetryableConflict() {
        journal.append(register("a", "\"int\"", 9, -1));
        assertInstanceOf(Conflict.class, journal.append(register("b", "\"long\"", 9, -1)));
        // below the highest stored id, the view is read; above it, no schema can hold the id
        assertEquals(new SchemaRegistered(id(5), v(1), true), journal.append(register("c", "\"float\"", 5, -1)));
        assertInstanceOf(Conflict.class, journal.append(register("d", "\"double\"", 5, -1)));
        assertTrue(journal.view().ids().mayHoldSchemaId(id(9)));
        assertFalse(journal.view().ids().mayHoldSchemaId(id(10)));
        assertEquals(new SchemaRegistered(id(10), v(1), true), journal.append(register("e", "\"bytes\"", 10, -1)));
    }

    @Test
    void blocksAreGrantedInJournalOrderWithoutOverlap() {
        assertEquals(new BlockGranted(101, 10), journal.append(new LeaseIdBlock("n2", "r", 10)));
        assertEquals(new BlockGranted(111, 1000), journal.append(new LeaseIdBlock("n1", "r", 1000)));
        assertEquals(ErrorCode.UNPROCESSABLE, ((Rejected) journal.append(new LeaseIdBlock("n1", "r", 0))).error());
    }

    @Test
    void softDeleteHidesVersionsButKeepsTheSchemaResolvable() {
        journal.append(register("a", "\"int\"", 1, -1));
        journal.append(register("a", "\"long\"", 2, revision("a")));
        assertEquals(new SubjectDeleted(vs(1, 2)), journal.append(new DeleteSubject(s("a"), false)));
        assertTrue(journal.view().subject(s("a")).orElseThrow().softDeleted());
        assertTrue(journal.view().schema(Context.DEFAULT, id(1)).isPresent());
        assertEquals(ErrorCode.SUBJECT_SOFT_DELETED, rejection(new DeleteSubject(s("a"), false)));
    }

    @Test
    void permanentDeleteNeedsASoftDeleteFirst() {
        journal.append(register("a", "\"int\"", 1, -1));
        assertEquals(ErrorCode.SUBJECT_NOT_SOFT_DELETED, rejection(new DeleteSubject(s("a"), true)));
        assertEquals(ErrorCode.VERSION_NOT_SOFT_DELETED, rejection(new DeleteVersion(s("a"), v(1), true)));
        journal.append(new DeleteSubject(s("a"), false));
        assertEquals(new SubjectDeleted(vs(1)), journal.append(new DeleteSubject(s("a"), true)));
        assertTrue(journal.view().subject(s("a")).isEmpty());
        assertTrue(journal.view().usages().usages(Context.DEFAULT, id(1)).isEmpty());
        assertEquals(ErrorCode.SUBJECT_NOT_FOUND, rejection(new DeleteSubject(s("a"), true)));
    }

    @Test
    void versionsContinueAfterASoftDeleteAndRestartAfterAPermanentOne() {
        journal.append(register("a", "\"int\"", 1, -1));
        journal.append(new DeleteVersion(s("a"), v(1), false));
        assertEquals(ErrorCode.VERSION_SOFT_DELETED, rejection(new DeleteVersion(s("a"), v(1), false)));
        assertEquals(new SchemaRegistered(id(1), v(2), true), journal.append(register("a", "\"int\"", 2, revision("a"))));
        journal.append(new DeleteSubject(s("a"), false));
        journal.append(new DeleteSubject(s("a"), true));
        assertEquals(new SchemaRegistered(id(1), v(1), true), journal.append(register("a", "\"int\"", 3, -1)));
    }

    /** The highest live version by a scan of every version: what latestLive must answer. */
    static java.util.Optional<Integer> latestLiveByScan(RegistryView view, String subject) {
        return view.versions(s(subject)).stream().filter(r -> !r.deleted()).map(r -> r.version().number())
                .reduce((a, b) -> b);
    }

    /**
     * The read that skips versions above the subject's latest (imports, the follower) answers as
     * the plain read for every version: no version is ever stored above the subject's latest.
     */
    static void versionsAboveTheLatestAreAbsent(RegistryView view, String subject) {
        SubjectRecord known = view.subject(s(subject)).orElse(SubjectRecord.EMPTY);
        for (int n = 1; n <= 25; n++) {
            assertEquals(view.version(s(subject), v(n)), view.version(s(subject), known, v(n)), "version " + n);
        }
    }

    @Test
    void theLatestLiveVersionIsFoundPastSoftDeletedAndPermanentlyDeletedVersions() {
        for (int i = 1; i <= 20; i++) {
            journal.append(register("a", "\"v" + i + "\"", i, revision("a")));
        }
        assertEquals(java.util.Optional.of(20), journal.view().latestLive(s("a")).map(r -> r.version().number()));
        // Soft-delete from the top, past the point reads latestLive tries before it scans, and take some
        // soft-deleted versions away for good (gaps); after each step it agrees with a full scan.
        int[] softDeletes = {20, 19, 17, 18, 16, 15, 14, 13, 12, 11, 3, 10, 9, 8, 7, 6, 5, 4, 2, 1};
        for (int version : softDeletes) {
            journal.append(new DeleteVersion(s("a"), v(version), false));
            if (version % 3 == 0) {
                journal.append(new DeleteVersion(s("a"), v(version), true));
            }
            assertEquals(latestLiveByScan(journal.view(), "a"),
                    journal.view().latestLive(s("a")).map(r -> r.version().number()), "after deleting " + version);
            versionsAboveTheLatestAreAbsent(journal.view(), "a");
        }
        assertTrue(journal.view().latestLive(s("a")).isEmpty());
        assertTrue(journal.view().latestLive(s("never-registered")).isEmpty());
        journal.append(register("a", "\"v21\"", 21, revision("a")));
        assertEquals(java.util.Optional.of(21), journal.view().latestLive(s("a")).map(r -> r.version().number()));
        versionsAboveTheLatestAreAbsent(journal.view(), "a");
        journal.append(new DeleteVersion(s("a"), v(21), false));
        journal.append(new DeleteVersion(s("a"), v(21), true)); // the top version gone for good: the latest is 20 again
        assertEquals(v(20), journal.view().subject(s("a")).orElseThrow().latestVersion());
        versionsAboveTheLatestAreAbsent(journal.view(), "a");
    }

    @Test
    void deletingAMissingVersionOrSubjectIsRefused() {
        assertEquals(ErrorCode.SUBJECT_NOT_FOUND, rejection(new DeleteVersion(s("nope"), v(1), false)));
        journal.append(register("a", "\"int\"", 1, -1));
        assertEquals(ErrorCode.VERSION_NOT_FOUND, rejection(new DeleteVersion(s("a"), v(2), false)));
        assertEquals(new VersionDeleted(v(1)), journal.append(new DeleteVersion(s("a"), v(1), false)));
        assertEquals(new VersionDeleted(v(1)), journal.append(new DeleteVersion(s("a"), v(1), true)));
        assertTrue(journal.view().subject(s("a")).isEmpty(), "the last version gone, the subject is gone");
    }

    @Test
    void configFallsBackToGlobalThenDefault() {
        assertEquals(CompatibilityLevel.BACKWARD, journal.view().config().effectiveLevel(s("a")));
        journal.append(new SetConfig(null, CompatibilityLevel.FULL));
        journal.append(new SetConfig(s("a"), CompatibilityLevel.NONE));
        assertEquals(CompatibilityLevel.NONE, journal.view().config().effectiveLevel(s("a")));
        assertEquals(CompatibilityLevel.FULL, journal.view().config().effectiveLevel(s("b")));
        assertEquals(new ConfigDeleted(CompatibilityLevel.NONE), journal.append(new DeleteConfig(s("a"))));
        assertEquals(ErrorCode.SUBJECT_NOT_FOUND, rejection(new DeleteConfig(s("a"))));
        assertEquals(new ConfigDeleted(CompatibilityLevel.FULL), journal.append(new DeleteConfig(null)));
        assertEquals(CompatibilityLevel.BACKWARD, journal.view().config().effectiveLevel(s("a")));
    }

    @Test
    void readOnlyModeRefusesWritesToTheSubject() {
        journal.append(register("a", "\"int\"", 1, -1));
        journal.append(new SetMode(s("a"), Mode.READONLY));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, rejection(register("a", "\"long\"", 2, revision("a"))));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, rejection(new DeleteSubject(s("a"), false)));
        assertEquals(new SchemaRegistered(id(2), v(1), true), journal.append(register("b", "\"long\"", 2, -1)));
        assertEquals(new ModeDeleted(Mode.READONLY), journal.append(new DeleteMode(s("a"))));
        assertEquals(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, rejection(new DeleteMode(s("a"))));
    }

    @Test
    void invalidSubjectsNeverReachTheView() {
        assertEquals(ErrorCode.INVALID_SUBJECT, rejection(register("bad\u0000name", "\"int\"", 1, -1)));
        assertTrue(journal.view().schema(Context.DEFAULT, id(1)).isEmpty());
    }

    @Test
    void everyRejectionStillAdvancesThePositionAndIsRecorded() {
        Position before = journal.view().position();
        journal.append(new DeleteSubject(s("nope"), false));
        Position after = journal.view().position();
        assertEquals(before.offset().value() + 1, after.offset().value());
        assertFalse(before.equals(after));
        List<io.quire.journal.view.AuditEntry> trail = new java.util.ArrayList<>();
        journal.view().audit().audit(after.offset(), trail::add);
        assertEquals(after.offset(), trail.get(0).offset());
        assertEquals(ErrorCode.SUBJECT_NOT_FOUND.code, trail.get(0).errorCode());
    }

    @Test
    void everyCommandLeavesAnAuditEntryWithWhoWhatWhenAndTheVerdict() {
        journal.append(register("a", "\"int\"", 1, -1));
        journal.append(new DeleteSubject(s("missing"), false));
        List<io.quire.journal.view.AuditEntry> entries = new java.util.ArrayList<>();
        journal.view().audit().audit(at(0), entries::add);
        assertEquals(3, entries.size());
        io.quire.journal.view.AuditEntry reg = entries.get(1);
        assertEquals(Principal.of("tester"), reg.principal());
        assertEquals("RegisterSchema", reg.command());
        assertEquals(s("a"), reg.subject());
        assertEquals("SchemaRegistered", reg.outcome());
        assertEquals(1_700_000_000_001L, reg.timestamp());
        io.quire.journal.view.AuditEntry refused = entries.get(2);
        assertEquals(40401, refused.errorCode());
        assertTrue(new io.quire.journal.view.AuditEntry.Filter(s("missing"), null, null, null).matches(refused));
        assertFalse(new io.quire.journal.view.AuditEntry.Filter(null, Principal.of("someone-else"), null, null).matches(refused));
    }

    static ImportSchema imported(String subject, String content, long id, int version) {
        return new ImportSchema(s(subject), SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp-" + content), id(id), v(version));
    }

    static int errorCode(Outcome o) {
        return ((Rejected) o).error().code;
    }

    @Test
    void importNeedsImportModeAndImportModeNeedsIds() {
        assertEquals(42205, errorCode(journal.append(imported("a", "\"int\"", 500, 1))));
        journal.append(new SetMode(null, Mode.IMPORT));
        assertEquals(42205, errorCode(journal.append(register("a", "\"int\"", 3, -1))),
                "a registration without an id is refused in import mode");
        assertEquals(new SchemaRegistered(id(500), v(1), true), journal.append(imported("a", "\"int\"", 500, 1)));
        journal.append(new SetMode(s("b"), Mode.READWRITE));
        assertEquals(new SchemaRegistered(id(3), v(1), true), journal.append(register("b", "\"long\"", 3, -1)),
                "a subject's own mode wins over the global one");
    }

    @Test
    void importKeepsIdsAndVersionsInAnyOrderAndRaisesTheWatermark() {
        journal.append(new SetMode(null, Mode.IMPORT));
        assertEquals(new SchemaRegistered(id(71023), v(3), true), journal.append(imported("rev", "\"c\"", 71023, 3)));
        assertEquals(new SchemaRegistered(id(71021), v(1), true), journal.append(imported("rev", "\"a\"", 71021, 1)));
        assertEquals(new SchemaRegistered(id(71024), v(4), true), journal.append(imported("rev", "\"d\"", 71024, 0)),
                "version 0 means the next one");
        assertEquals(3, journal.view().subject(s("rev")).orElseThrow().liveVersions());
        assertEquals(v(4), journal.view().subject(s("rev")).orElseThrow().latestVersion());
        assertEquals(id(71025), journal.view().idWatermark());
        assertEquals(new BlockGranted(71025, 100), journal.append(new LeaseIdBlock("n1", "r2", 100)),
                "no block granted after an import contains an imported id");
        assertEquals(new SchemaRegistered(id(71021), v(1), true), journal.append(imported("other", "\"a\"", 71021, 1)),
                "the same content under the same id in another subject");
        assertEquals(new SchemaRegistered(id(71021), v(1), false), journal.append(imported("other", "\"a\"", 71021, 1)),
                "importing again is idempotent");
    }

    @Test
    void importRefusesAnotherIdForKnownContentAnotherContentForAnIdAndATakenVersion() {
        journal.append(new SetMode(null, Mode.IMPORT));
        journal.append(imported("a", "\"int\"", 900, 1));
        assertEquals(42207, errorCode(journal.append(imported("b", "\"int\"", 901, 1))));
        assertEquals(42205, errorCode(journal.append(imported("b", "\"long\"", 900, 1))));
        assertEquals(42205, errorCode(journal.append(imported("a", "\"long\"", 902, 1))));
        assertEquals(42205, errorCode(journal.append(imported("a", "\"long\"", 0, 2))));
    }

    static ImportSchema importedWithGlobalId(String subject, String content, long id, int version, Long globalId,
                                             Boolean deprecated) {
        return new ImportSchema(s(subject), SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp-" + content), id(id), v(version),
                null, null, globalId, deprecated);
    }

    long globalId(String subject, int version) {
        return journal.view().version(s(subject), v(version)).orElseThrow().globalId();
    }

    @Test
    void everyVersionGetsTheNextGlobalIdInJournalOrderAndKeepsItThroughASoftDelete() {
        journal.append(register("a", "\"int\"", 3, -1));
        journal.append(register("b", "\"int\"", 4, -1)); // the same content in another subject: its own version
        journal.append(register("a", "\"long\"", 5, journal.view().revision(s("a")).value()));
        assertEquals(List.of(1L, 2L, 3L), List.of(globalId("a", 1), globalId("b", 1), globalId("a", 2)));
        assertEquals(new RegistryView.Usage(s("a"), v(2)), journal.view().ids().versionOfGlobalId(3).orElseThrow());
        assertEquals(4, journal.view().ids().nextGlobalId());

        journal.append(register("a", "\"int\"", 6, -1)); // already version 1: no new version, no new global id
        assertEquals(4, journal.view().ids().nextGlobalId());
        journal.append(new DeleteVersion(s("a"), v(2), false));
        assertEquals(3, globalId("a", 2), "a soft-deleted version keeps its global id");
        journal.append(new DeleteVersion(s("a"), v(2), true));
        assertTrue(journal.view().ids().versionOfGlobalId(3).isEmpty(), "a permanently deleted one frees the name");
        journal.append(register("a", "\"bytes\"", 7, journal.view().revision(s("a")).value()));
        assertEquals(4, globalId("a", 2), "version 2 again, with a new global id: global ids are never given twice");
    }

    @Test
    void importKeepsAnotherRegistrysGlobalIdsAndTheCounterMovesAboveThem() {
        journal.append(register("native", "\"int\"", 3, -1)); // global id 1
        journal.append(new SetMode(null, Mode.IMPORT));
        journal.append(importedWithGlobalId("imp", "\"long\"", 900, 1, 40L, null));
        journal.append(importedWithGlobalId("imp", "\"bytes\"", 901, 2, 12L, true));
        assertEquals(40, globalId("imp", 1));
        assertEquals(12, globalId("imp", 2));
        assertTrue(journal.view().version(s("imp"), v(2)).orElseThrow().deprecated());
        assertFalse(journal.view().version(s("imp"), v(1)).orElseThrow().deprecated());
        assertEquals(41, journal.view().ids().nextGlobalId(), "above the highest imported one");

        assertEquals(42205, errorCode(journal.append(importedWithGlobalId("imp", "\"float\"", 902, 3, 1L, null))),
                "a global id another version has is refused");
        assertEquals(42205, errorCode(journal.append(importedWithGlobalId("imp", "\"float\"", 902, 3, 0L, null))));
        assertEquals(42205, errorCode(journal.append(importedWithGlobalId("imp", "\"float\"", 902, 3,
                (long) Integer.MAX_VALUE + 1, null))));
        assertTrue(journal.view().version(s("imp"), v(3)).isEmpty());
        assertEquals(41, journal.view().ids().nextGlobalId());
        assertEquals(new SchemaRegistered(id(900), v(1), false),
                journal.append(importedWithGlobalId("imp", "\"long\"", 900, 1, 40L, null)), "importing again changes nothing");
        assertEquals(40, globalId("imp", 1));
        journal.append(imported("imp", "\"float\"", 903, 0));
        assertEquals(41, globalId("imp", 3), "an import without one takes the next");
    }

    @Test
    void anImportedIdInsideAnAlreadyLeasedBlockMakesTheNodeTakeAnother() {
        journal.append(new SetMode(null, Mode.IMPORT));
        journal.append(imported("imp", "\"int\"", 10, 1)); // inside the block [1, 101) leased before
        journal.append(new SetMode(null, Mode.READWRITE));
        assertInstanceOf(Conflict.class, journal.append(register("x", "\"long\"", 10, -1)));
        assertEquals(new SchemaRegistered(id(11), v(1), true), journal.append(register("x", "\"long\"", 11, -1)));
        assertEquals(id(101), journal.view().idWatermark(), "the watermark stays where the lease put it");
    }

    @Test
    void aGlobalReadOnlyOverrideWinsOverSubjectModes() {
        journal.append(new SetMode(s("a"), Mode.READWRITE));
        journal.append(new SetMode(null, Mode.READONLY_OVERRIDE));
        assertEquals(42205, errorCode(journal.append(register("a", "\"int\"", 3, -1))));
        journal.append(new SetMode(null, Mode.READONLY));
        assertEquals(new SchemaRegistered(id(3), v(1), true), journal.append(register("a", "\"int\"", 3, -1)),
                "a plain global READONLY yields to the subject's own mode");
    }

    @Test
    void aDataContractIsStoredWithTheSchemaAndABrokenRuleSetIsRefusedWith42210() {
        Metadata m = Metadata.of(null, java.util.Map.of("owner", "team-a"), null);
        RuleSet rules = new RuleSet(null, List.of(new Rule("checkId", null, RuleKind.CONDITION, RuleMode.WRITE, "CEL",
                null, null, "message.id > 0", null, null, false)), null);
        RegisterSchema withContract = new RegisterSchema(s("c"), SchemaType.AVRO, "\"int\"", List.of(), Fingerprint.parse("fp-c"), id(4),
                CompatibilityLevel.BACKWARD, at(-1), m, rules);
        assertEquals(new SchemaRegistered(id(4), v(1), true), journal.append(withContract));
        assertEquals(m, journal.view().schema(Context.DEFAULT, id(4)).orElseThrow().metadata());
        assertEquals(rules, journal.view().schema(Context.DEFAULT, id(4)).orElseThrow().ruleSet());
        SchemaGuid guid = journal.view().schema(Context.DEFAULT, id(4)).orElseThrow().guid();
        assertEquals(List.of(new RegistryView.ContextId(Context.DEFAULT, id(4))), journal.view().usages().idsForGuid(guid),
                "found by its GUID");
        assertEquals(SchemaGuid.of("\"int\"", List.of(), m, rules), guid, "a pure function of the content");
        assertNotEquals(SchemaGuid.of("\"int\"", List.of(), null, null), guid, "the contract is part of it");
        RuleSet twice = new RuleSet(null, List.of(rules.domainRules().get(0), rules.domainRules().get(0)), null);
        RegisterSchema broken = new RegisterSchema(s("d"), SchemaType.AVRO, "\"long\"", List.of(), Fingerprint.parse("fp-d"), id(5),
                CompatibilityLevel.BACKWARD, at(-1), null, twice);
        String before = withoutPosition();
        assertEquals(ErrorCode.INVALID_RULESET, ((Rejected) journal.append(broken)).error());
        assertEquals(before, withoutPosition(), "a refused command changes nothing");
    }

    static RegisterSchema registerWithRef(String subject, String content, long proposedId, SchemaReference ref) {
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, List.of(ref), Fingerprint.parse("fp-" + content + ref), id(proposedId),
                CompatibilityLevel.BACKWARD, at(-1));
    }

    @Test
    void aReferencedVersionIsProtectedAsConfluentProtectsIt() {
        // Confluent's deleteSchemaVersion and deleteSubject: a soft delete is refused while a live
        // version references the target, a permanent one while any version does.
        journal.append(register("customer", "\"c\"", 1, -1));
        SchemaReference ref = new SchemaReference("Customer", s("customer"), v(1));
        assertEquals(new SchemaRegistered(id(2), v(1), true), journal.append(registerWithRef("order", "\"o\"", 2, ref)));
        assertEquals(List.of(id(2)), journal.view().usages().referencedBy(s("customer"), v(1)));
        assertEquals(42206, errorCode(journal.append(new DeleteVersion(s("customer"), v(1), false))), "a live referrer");
        assertEquals(42206, errorCode(journal.append(new DeleteSubject(s("customer"), false))), "a live referrer");
        assertTrue(journal.view().version(s("customer"), v(1)).map(r -> !r.deleted()).orElse(false), "still live");

        journal.append(new DeleteSubject(s("order"), false));
        assertEquals(List.of(id(2)), journal.view().usages().referencedBy(s("customer"), v(1)), "a soft-deleted user still counts");
        assertInstanceOf(VersionDeleted.class, journal.append(new DeleteVersion(s("customer"), v(1), false)),
                "the referrer is soft-deleted: a soft delete may go");
        assertEquals(42206, errorCode(journal.append(new DeleteVersion(s("customer"), v(1), true))));
        assertEquals(42206, errorCode(journal.append(new DeleteSubject(s("customer"), true))));
        journal.append(new DeleteSubject(s("order"), true));
        assertEquals(List.of(), journal.view().usages().referencedBy(s("customer"), v(1)));
        assertInstanceOf(SubjectDeleted.class, journal.append(new DeleteSubject(s("customer"), true)));
    }

    @Test
    void aSubjectsOwnVersionsDoNotProtectItFromItsOwnDelete() {
        journal.append(register("self", "\"c\"", 1, -1));
        assertEquals(new SchemaRegistered(id(2), v(2), true), journal.append(new RegisterSchema(s("self"), SchemaType.AVRO,
                "\"o\"", List.of(new SchemaReference("C", s("self"), v(1))), Fingerprint.parse("fp-o-self"), id(2),
                CompatibilityLevel.BACKWARD, at(1))));
        assertEquals(42206, errorCode(journal.append(new DeleteVersion(s("self"), v(1), false))),
                "a version's delete counts its own subject's referrers");
        assertInstanceOf(SubjectDeleted.class, journal.append(new DeleteSubject(s("self"), false)));
        assertInstanceOf(SubjectDeleted.class, journal.append(new DeleteSubject(s("self"), true)));
    }

    @Test
    void aReferenceToAMissingVersionIsRefusedAtApplyTime() {
        Outcome o = journal.append(registerWithRef("order", "\"o\"", 2, new SchemaReference("X", s("nobody"), v(1))));
        assertEquals(42201, errorCode(o));
        assertTrue(journal.view().schema(Context.DEFAULT, id(2)).isEmpty());
    }

    @Test
    void replayingAnAppliedOffsetChangesNothing() {
        journal.append(register("a", "\"int\"", 1, -1));
        String digest = ViewDigest.of(journal.kv());
        ApplyResult again = journal.reapply(1);
        assertTrue(again.alreadyApplied());
        assertEquals(0, again.changes().size());
        assertEquals(digest, ViewDigest.of(journal.kv()));
    }

    ErrorCode rejection(io.quire.journal.command.Command c) {
        Outcome o = journal.append(c);
        assertInstanceOf(Rejected.class, o, () -> "expected a rejection, got " + o);
        return ((Rejected) o).error();
    }

    /** The view's digest with the position, layout and audit entries left out. */
    String withoutPosition() {
        io.quire.journal.view.InMemoryKv copy = new io.quire.journal.view.InMemoryKv();
        io.quire.journal.view.Changes c = new io.quire.journal.view.Changes();
        journal.kv().scan(new byte[0], (k, v) -> {
            if (k[0] != 'A' && !(k[0] == 'G' && (k[1] == 'p' || k[1] == 'l'))) {
                c.put(k, v);
            }
            return true;
        });
        copy.apply(c);
        return ViewDigest.of(copy);
    }
}
