package io.quire.journal;

import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.DeleteContext;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Mode;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.outcome.ContextDeleted;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.RegistryView;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Contexts: subjects, ids, content identity and settings scoped per context. */
class ContextRulesTest {

    static final Context STAGING = Context.parse(".staging");

    ReplayedJournal journal;

    @BeforeEach
    void leased() {
        journal = new ReplayedJournal();
        journal.append(new LeaseIdBlock("n1", "r1", 100));
    }

    RegisterSchema register(String subject, String content, long id, List<SchemaReference> refs) {
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, refs, Fingerprint.parse("fp-" + content), id(id),
                CompatibilityLevel.BACKWARD, journal.view().revision(s(subject)));
    }

    ErrorCode refused(Outcome o) {
        return assertInstanceOf(Rejected.class, o).error();
    }

    @Test
    void namesParseAsConfluentSpellsThem() {
        assertEquals(STAGING, Context.parse("staging"));
        assertEquals(STAGING, Context.parse(":.staging:"));
        assertEquals(Context.DEFAULT, Context.parse("."));
        assertEquals(Context.DEFAULT, Context.parse(""));
        assertThrows(IllegalArgumentException.class, () -> Context.parse(".a:b"));
        assertEquals(STAGING, s(":.staging:orders").context());
        assertEquals("orders", s(":.staging:orders").bare());
        assertEquals(Context.DEFAULT, s("orders").context());
        assertEquals(Context.DEFAULT, s(":no-context").context(), "one colon does not qualify");
        assertTrue(s(":.staging:").isContextOnly());
        assertEquals(s(":.staging:customer"), STAGING.qualify(s("customer")));
        assertEquals(s(":.other:customer"), STAGING.qualify(s(":.other:customer")), "a qualified name stays");
    }

    @Test
    void theSameContentInAnotherContextIsAnotherSchemaWithItsOwnId() {
        assertEquals(new SchemaRegistered(id(1), v(1), true), journal.append(register("orders", "\"string\"", 1, List.of())));
        assertEquals(new SchemaRegistered(id(2), v(1), true),
                journal.append(register(":.staging:orders", "\"string\"", 2, List.of())), "a new id in the context");
        RegistryView view = journal.view();
        assertEquals(SchemaId.of(1), view.ids().idForFingerprint(Context.DEFAULT, Fingerprint.parse("fp-\"string\"")).orElseThrow());
        assertEquals(SchemaId.of(2), view.ids().idForFingerprint(STAGING, Fingerprint.parse("fp-\"string\"")).orElseThrow());
        assertTrue(view.schema(STAGING, id(2)).isPresent());
        assertFalse(view.schema(Context.DEFAULT, id(2)).isPresent(), "id 2 is not in the default context");
        assertEquals(List.of(new RegistryView.Usage(s(":.staging:orders"), v(1))), view.usages().usages(STAGING, id(2)));
        assertEquals(List.of(), view.usages().usages(Context.DEFAULT, id(2)));
        assertEquals(List.of(STAGING), view.contexts());
        var guid = view.schema(STAGING, id(2)).orElseThrow().guid();
        assertEquals(List.of(new RegistryView.ContextId(Context.DEFAULT, id(1)), new RegistryView.ContextId(STAGING, id(2))),
                view.usages().idsForGuid(guid), "one GUID, an id per context, the default first");
    }

    @Test
    void anImportedIdMayMeanOtherContentInAnotherContext() {
        journal.append(register("orders", "\"string\"", 1, List.of()));
        journal.append(new SetMode(s(":.staging:"), Mode.IMPORT));
        assertEquals(Mode.IMPORT, journal.view().config().effectiveMode(s(":.staging:orders")), "the context's mode applies");
        assertEquals(Mode.READWRITE, journal.view().config().effectiveMode(s("orders")));
        Outcome o = journal.append(new ImportSchema(s(":.staging:orders"), SchemaType.AVRO, "\"long\"", List.of(),
                Fingerprint.parse("fp-\"long\""), id(1), v(1)));
        assertEquals(new SchemaRegistered(id(1), v(1), true), o);
        assertEquals("\"long\"", journal.view().schema(STAGING, id(1)).orElseThrow().schema());
        assertEquals("\"string\"", journal.view().schema(Context.DEFAULT, id(1)).orElseThrow().schema());
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, refused(journal.append(new ImportSchema(s(":.staging:other"),
                SchemaType.AVRO, "\"int\"", List.of(), Fingerprint.parse("fp-\"int\""), id(1), v(1)))), "inside one context an id keeps its content");
    }

    @Test
    void settingsFallBackSubjectThenContextThenRegistry() {
        journal.append(new SetConfig(null, CompatibilityLevel.FULL));
        journal.append(new SetConfig(s(":.staging:"), CompatibilityLevel.NONE));
        journal.append(new SetConfig(s(":.staging:pinned"), CompatibilityLevel.FORWARD));
        RegistryView view = journal.view();
        assertEquals(CompatibilityLevel.NONE, view.config().effectiveLevel(s(":.staging:orders")));
        assertEquals(CompatibilityLevel.FORWARD, view.config().effectiveLevel(s(":.staging:pinned")));
        assertEquals(CompatibilityLevel.FULL, view.config().effectiveLevel(s("orders")));
        assertEquals(CompatibilityLevel.FULL, view.config().effectiveLevel(s(":.other:orders")));
    }

    @Test
    void referencesOfAQualifiedSchemaAreReadInItsContext() {
        journal.append(register(":.staging:customer", "\"customer\"", 1, List.of()));
        SchemaReference ref = new SchemaReference("Customer", s("customer"), v(1));
        assertEquals(ErrorCode.INVALID_SCHEMA, refused(journal.append(register("orders", "\"o\"", 2, List.of(ref)))),
                "no subject 'customer' in the default context");
        assertEquals(new SchemaRegistered(id(3), v(1), true),
                journal.append(register(":.staging:orders", "\"o\"", 3, List.of(ref))));
        assertEquals(List.of(id(3)), journal.view().usages().referencedBy(s(":.staging:customer"), v(1)));
    }

    @Test
    void aContextIsDeletedOnlyWhenNoSubjectIsLeftAndTheDefaultOneNever() {
        journal.append(register(":.staging:orders", "\"string\"", 1, List.of()));
        assertEquals(ErrorCode.CONTEXT_NOT_EMPTY, refused(journal.append(new DeleteContext(STAGING))));
        journal.append(new DeleteSubject(s(":.staging:orders"), false));
        assertEquals(ErrorCode.CONTEXT_NOT_EMPTY, refused(journal.append(new DeleteContext(STAGING))),
                "a soft-deleted subject still counts");
        journal.append(new DeleteSubject(s(":.staging:orders"), true));
        assertEquals(new ContextDeleted(STAGING), journal.append(new DeleteContext(STAGING)));
        assertEquals(List.of(), journal.view().contexts());
        assertEquals(ErrorCode.CONTEXT_NOT_FOUND, refused(journal.append(new DeleteContext(STAGING))));
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, refused(journal.append(new DeleteContext(Context.DEFAULT))));
    }

    @Test
    void aContextOnlyNameHoldsSettingsNeverSchemas() {
        assertEquals(ErrorCode.INVALID_SUBJECT, refused(journal.append(register(":.staging:", "\"x\"", 1, List.of()))));
        assertEquals(ErrorCode.INVALID_SUBJECT, refused(journal.append(register(":.:orders", "\"x\"", 1, List.of()))),
                "a second spelling of 'orders'");
    }
}
