package io.quire.journal;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.model.Association;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.AssociationsDeleted;
import io.quire.journal.outcome.AssociationsSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Associations between subjects and resources: given a journal, this outcome and this view. */
class AssociationRulesTest {

    ReplayedJournal journal;

    @BeforeEach
    void twoSubjects() {
        journal = new ReplayedJournal();
        journal.append(new LeaseIdBlock("n1", "r1", 100));
        for (String subject : List.of("orders-value", "orders-key", "other-value")) {
            journal.append(new RegisterSchema(s(subject), SchemaType.AVRO, "\"" + subject + "\"", List.of(),
                    Fingerprint.parse("fp-" + subject), id(journal.records().size()), CompatibilityLevel.BACKWARD, at(-1)));
        }
    }

    static Association topic(String subject, String topicId, String role, Lifecycle lifecycle, boolean frozen) {
        return new Association(s(subject), "orders", "lkc-1", topicId, null, role, lifecycle, frozen);
    }

    /** The associations without their GUIDs, to compare with what a request gives. */
    static List<Association> bare(List<Association> list) {
        return list.stream().map(a -> a.withGuid(null)).toList();
    }

    static List<Association> bare(Outcome o) {
        return o instanceof AssociationsSet set ? bare(set.associations())
                : bare(assertInstanceOf(AssociationsDeleted.class, o).associations());
    }

    ErrorCode refused(Outcome o) {
        return assertInstanceOf(Rejected.class, o).error();
    }

    @Test
    void aTopicGetsOneSubjectPerRoleFoundByNameIdAndSubject() {
        Association value = topic("orders-value", "t1", "value", null, false);
        Association key = topic("orders-key", "t1", "key", null, false);
        Outcome set = journal.append(new SetAssociations(List.of(value, key), false));
        assertEquals(List.of(value, key), bare(set));
        assertEquals("topic", value.resourceType(), "the default type");
        assertEquals(Lifecycle.STRONG, value.lifecycle(), "the default lifecycle");
        assertEquals(List.of(key, value), bare(journal.view().associations().associations("t1", null)), "ordered by type and role");
        assertEquals(List.of(key, value), bare(journal.view().associations().associationsByName("orders", null)), "any namespace");
        assertEquals(List.of(), journal.view().associations().associationsByName("orders", "lkc-other"));
        Association recreated = topic("other-value", "t1-recreated", "value", null, false);
        journal.append(new SetAssociations(List.of(recreated), false));
        assertEquals(List.of(key, value, recreated), bare(journal.view().associations().associationsByName("orders", "lkc-1")),
                "a topic recreated under the same name has its own id: both are found by name");
        assertEquals(List.of(value), bare(journal.view().associations().subjectAssociations(s("orders-value"))));
        assertEquals(((AssociationsSet) set).associations(), List.of(journal.view().associations().association("t1", "topic", "value")
                .orElseThrow(), journal.view().associations().association("t1", "topic", "key").orElseThrow()), "stored with their GUIDs");
        assertEquals(ErrorCode.ASSOCIATION_FOR_RESOURCE_EXISTS,
                refused(journal.append(new SetAssociations(List.of(topic("other-value", "t1", "value", null, false)), false))),
                "the role is taken");
    }

    @Test
    void aStrongAssociationIsTheSubjectsOnlyOneAndAFrozenOneStays() {
        journal.append(new SetAssociations(List.of(topic("orders-value", "t1", "value", null, false)), false));
        assertEquals(ErrorCode.STRONG_ASSOCIATION_FOR_SUBJECT_EXISTS, refused(journal.append(
                new SetAssociations(List.of(topic("orders-value", "t2", "value", Lifecycle.WEAK, false)), false))));
        journal.append(new SetAssociations(List.of(topic("other-value", "t3", "value", Lifecycle.WEAK, false)), false));
        assertEquals(ErrorCode.ASSOCIATION_FOR_SUBJECT_EXISTS, refused(journal.append(
                new SetAssociations(List.of(topic("other-value", "t4", "value", Lifecycle.STRONG, false)), false))),
                "a subject used weakly elsewhere cannot belong to a topic");
        journal.append(new SetAssociations(List.of(topic("other-value", "t5", "value", Lifecycle.WEAK, false)), false));
        assertEquals(2, journal.view().associations().subjectAssociations(s("other-value")).size(), "weak ones add up");

        Association frozen = topic("orders-key", "t6", "key", Lifecycle.STRONG, true);
        journal.append(new SetAssociations(List.of(frozen), false));
        assertEquals(ErrorCode.ASSOCIATION_FROZEN, refused(journal.append(new SetAssociations(
                List.of(topic("orders-key", "t6", "key", Lifecycle.STRONG, false)), true))));
        assertEquals(ErrorCode.ASSOCIATION_FROZEN, refused(journal.append(new DeleteAssociations("t6", null, List.of()))),
                "a frozen STRONG association goes only with its subject");
        assertEquals(ErrorCode.INVALID_ASSOCIATION, refused(journal.append(new SetAssociations(
                List.of(topic("orders-key", "t7", "key", Lifecycle.WEAK, true)), false))), "a weak one cannot be frozen");
    }

    @Test
    void replaceDeleteAndTheSubjectsItProtects() {
        journal.append(new SetAssociations(List.of(topic("orders-value", "t1", "value", null, false)), false));
        Association moved = topic("other-value", "t1", "value", null, false);
        assertEquals(List.of(moved), bare(journal.append(new SetAssociations(List.of(moved), true))));
        assertEquals(List.of(), journal.view().associations().subjectAssociations(s("orders-value")), "the old subject is free again");
        assertEquals(ErrorCode.ASSOCIATION_FOR_SUBJECT_EXISTS,
                refused(journal.append(new DeleteSubject(s("other-value"), false))), "remove the association first");
        assertEquals(List.of(moved), bare(journal.append(new DeleteAssociations("t1", "topic", List.of("value")))));
        assertEquals(ErrorCode.ASSOCIATION_NOT_FOUND, refused(journal.append(new DeleteAssociations("t1", null, List.of()))));
        assertInstanceOf(io.quire.journal.outcome.SubjectDeleted.class,
                journal.append(new DeleteSubject(s("other-value"), false)));
        assertEquals(ErrorCode.NO_ACTIVE_SUBJECT_VERSION, refused(journal.append(new SetAssociations(
                List.of(topic("other-value", "t1", "value", null, false)), false))), "a soft-deleted subject");
        assertEquals(ErrorCode.INVALID_ASSOCIATION, refused(journal.append(new SetAssociations(
                List.of(new Association(s("orders-value"), "", "lkc-1", "t9", null, null, null, false)), false))));
    }

    @Test
    void eachAssociationHasAGuidFromTheJournalKeptWhileItsSubjectStays() {
        Association value = topic("orders-value", "t1", "value", null, false);
        String first = journal.view().position().offset().value() + "";
        String guid = ((AssociationsSet) journal.append(new SetAssociations(List.of(value), false))).associations().get(0)
                .guid();
        assertEquals(36, guid.length(), first);
        ReplayedJournal again = new ReplayedJournal();
        journal.records().forEach(again::append);
        assertEquals(guid, again.view().associations().association("t1", "topic", "value").orElseThrow().guid(),
                "a replay of the same journal gives the same GUID");
        journal.append(new SetAssociations(List.of(value.with(value.subject(), Lifecycle.STRONG, true)), true));
        assertEquals(guid, journal.view().associations().association("t1", "topic", "value").orElseThrow().guid(),
                "replaced by the same subject: the same association");
        journal.append(new SetAssociations(List.of(topic("orders-key", "t1", "key", null, false)), false));
        assertNotEquals(guid, journal.view().associations().association("t1", "topic", "key").orElseThrow().guid());
    }

    @Test
    void cascadingTheLifecycleRemovesTheStrongSubjectsAndOnlyThem() {
        journal.append(new SetAssociations(List.of(topic("orders-value", "t1", "value", null, true),
                topic("orders-key", "t1", "key", Lifecycle.WEAK, false)), false));
        Outcome o = journal.append(new DeleteAssociations("t1", null, List.of(), true));
        assertEquals(2, bare(o).size());
        assertTrue(journal.view().subject(s("orders-value")).isEmpty(), "the STRONG one's subject is gone, permanently");
        assertTrue(journal.view().versions(s("orders-value")).isEmpty());
        assertTrue(journal.view().subject(s("orders-key")).isPresent(), "a WEAK one's subject stays");
        assertEquals(List.of(), journal.view().associations().associations("t1", null));
    }

    @Test
    void aCascadeThatWouldBreakAReferenceChangesNothing() {
        journal.append(new SetAssociations(List.of(topic("orders-value", "t1", "value", null, false)), false));
        journal.append(new RegisterSchema(s("user-value"), SchemaType.AVRO, "\"uses-orders\"",
                List.of(new SchemaReference("Orders", s("orders-value"), Version.of(1))), Fingerprint.parse("fp-uses-orders"),
                id(90), CompatibilityLevel.BACKWARD, at(-1)));
        assertEquals(ErrorCode.REFERENCE_EXISTS, refused(journal.append(new DeleteAssociations("t1", null, List.of(),
                true))));
        assertEquals(1, journal.view().associations().associations("t1", null).size(), "the association stays");
        assertTrue(journal.view().subject(s("orders-value")).isPresent());
    }
}
