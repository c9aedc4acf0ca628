package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.client.RegisterRequest;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Rule;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.service.RegistrationDecision.Known;
import io.quire.node.service.RegistrationDecision.Proposed;
import io.quire.node.service.RegistrationDecision.Refused;
import io.quire.node.service.RegistrationDecision.Verdict;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A registration decided against a view alone, each verdict as a value: no journal is written, no
 * id leased, nothing thrown, no cache filled.
 */
class RegistrationDecisionTest {

    static final String V1 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
    static final String V2 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
            + "{\"name\":\"b\",\"type\":\"int\",\"default\":0}]}";
    static final String BREAKS = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"c\",\"type\":\"int\"}]}";

    final RegistryHarness h = new RegistryHarness();

    SubjectSettings settings(String subject) {
        RegistryView view = h.access.view();
        return SubjectSettings.of(view, Subject.of(subject), view.config().effectiveMode(Subject.of(subject)));
    }

    Verdict decide(String subject, RegisterRequest req) {
        RegistryView view = h.access.view();
        Subject s = Subject.of(subject);
        ParsedSchema<?> parsed = h.parsing.parse(view, s.context(), SchemaType.AVRO, req.schema(), List.of(), false);
        return RegistrationDecision.decide(h.parsing.learning(view), view, s, settings(subject), parsed, req);
    }

    java.util.Optional<Known> knownBeforeTheQueue(String subject, String schema) {
        RegistryView view = h.access.view();
        Subject s = Subject.of(subject);
        ParsedSchema<?> parsed = h.parsing.parse(view, s.context(), SchemaType.AVRO, schema, List.of(), false);
        return RegistrationDecision.lookup(h.parsing.learning(view), view, s, settings(subject), parsed,
                RegistryHarness.avro(schema)).known();
    }

    Verdict decide(String subject, String schema) {
        return decide(subject, RegistryHarness.avro(schema));
    }

    void journal(io.quire.journal.command.Command c) throws Exception {
        assertTrue(h.journal.submit(c, Principal.of("tester")).get(10, TimeUnit.SECONDS).outcome().accepted());
    }

    @Test
    void knownProposedOrRefusedWithoutWritingAnything() {
        long id = h.register("orders", V1);
        long position = h.access.view().position().offset().value();

        Known known = assertInstanceOf(Known.class, decide("orders", V1));
        assertEquals(SchemaId.of(id), known.id());
        assertEquals(Version.of(1), known.version());
        assertEquals(known, knownBeforeTheQueue("orders", V1).orElseThrow(), "the same answer, without a check");
        assertTrue(knownBeforeTheQueue("orders", V2).isEmpty());
        assertTrue(knownBeforeTheQueue("orders", BREAKS).isEmpty(), "the lookup refuses nothing: decide does");

        Proposed next = assertInstanceOf(Proposed.class, decide("orders", V2));
        assertTrue(next.existingId().isEmpty(), "new content: the caller leases an id");
        assertEquals(CompatibilityLevel.BACKWARD, next.level());
        assertTrue(next.ordered());
        assertEquals(h.access.view().revision(Subject.of("orders")), next.revision());
        assertEquals(SchemaId.of(77), next.command(SchemaId.of(77)).proposedId());

        // the same content under another subject keeps its id
        Proposed elsewhere = assertInstanceOf(Proposed.class, decide("payments", V1));
        assertEquals(SchemaId.of(id), elsewhere.existingId().orElseThrow());

        Refused refused = assertInstanceOf(Refused.class, decide("orders", BREAKS));
        assertEquals(ErrorCode.INCOMPATIBLE_SCHEMA, refused.error());
        assertTrue(refused.message().contains("READER_FIELD_MISSING_DEFAULT_VALUE")
                || refused.message().toLowerCase().contains("incompatible"), refused.message());
        assertEquals(position, h.access.view().position().offset().value(), "deciding wrote nothing");
    }

    /** What was looked up before the queue is taken when the subject has not moved, and only then. */
    @Test
    void aLookupIsReusedOnlyWhileTheSubjectStandsStill() {
        h.register("orders", V1);
        RegistryView view = h.access.view();
        Subject s = Subject.of("orders");
        ParsedSchema<?> parsed = h.parsing.parse(view, s.context(), SchemaType.AVRO, V2, List.of(), false);
        RegistrationDecision.Lookup before = RegistrationDecision.lookup(h.parsing.learning(view), view, s,
                settings("orders"), parsed, RegistryHarness.avro(V2));
        assertTrue(before.known().isEmpty());
        Proposed reused = assertInstanceOf(Proposed.class, RegistrationDecision.decide(h.parsing.learning(view), view, s,
                settings("orders"), parsed, RegistryHarness.avro(V2), before));
        assertEquals(before.fingerprint(), reused.fingerprint());
        h.register("orders", V2); // the subject moves: the lookup is stale, decided anew
        RegistryView now = h.access.view();
        Known k = assertInstanceOf(Known.class, RegistrationDecision.decide(h.parsing.learning(now), now, s,
                settings("orders"), parsed, RegistryHarness.avro(V2), before));
        assertEquals(Version.of(2), k.version());
    }

    @Test
    void atLevelNoneNothingIsCheckedOrOrdered() throws Exception {
        h.register("loose", V1);
        journal(new SetConfig(Subject.of("loose"), CompatibilityLevel.NONE));
        Proposed p = assertInstanceOf(Proposed.class, decide("loose", BREAKS));
        assertEquals(CompatibilityLevel.NONE, p.level());
        assertTrue(!p.ordered());
    }

    @Test
    void aBareSchemaIsFoundUnderTheContractItWasStoredWith() {
        Metadata owner = Metadata.of(null, Map.of("owner", "team-a"), null);
        RegisterRequest withContract = new RegisterRequest(V1, null, List.of(), null, null, owner, null);
        long id = RegistryHarness.get(() -> h.registry.registrations().register(Subject.of("c"), withContract, false,
                Principal.of("tester"))).value().id().value();
        Known k = assertInstanceOf(Known.class, decide("c", V1));
        assertEquals(SchemaId.of(id), k.id());
        assertEquals(owner, k.contract().metadata(), "the contract it was stored with");
    }

    @Test
    void reservedFieldsRefuseBeforeCompatibility() throws Exception {
        journal(new SetConfig(Subject.of("r"), CompatibilityLevel.NONE, null,
                new ConfigFields(null, true, null, null, null, null, null, null), List.of()));
        RegisterRequest reservesA = new RegisterRequest(V1, null, List.of(), null, null,
                Metadata.of(null, Map.of("confluent:reserved", "a"), null), null);
        Refused r = assertInstanceOf(Refused.class, decide("r", reservesA));
        assertEquals(ErrorCode.INCOMPATIBLE_SCHEMA, r.error());
        assertTrue(r.message().contains("conflicts with the reserved field a"), r.message());
    }

    @Test
    void theRequestAloneIsAdmittedOrRefusedBeforeAnyParse() throws Exception {
        RegistryView view = h.access.view();
        Subject s = Subject.of("orders");
        assertTrue(RegistrationDecision.admit(view, s, settings("orders"), RegistryHarness.avro(V1)).isEmpty());
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, RegistrationDecision.admit(view, s, settings("orders"),
                RegistryHarness.imported(V1, 5, 1)).orElseThrow().error(), "an id outside IMPORT mode");
        assertEquals(ErrorCode.INVALID_SCHEMA, RegistrationDecision.admit(view, s, settings("orders"),
                new RegisterRequest(V1, null, List.of(), null, 3)).orElseThrow().error(), "version 3 of a new subject");
        RuleSet unnamed = new RuleSet(null, List.of(new Rule(null, null, null, null, "CEL", null, null, "true", null,
                null, false)), null);
        assertEquals(ErrorCode.INVALID_RULESET, RegistrationDecision.admit(view, s, settings("orders"),
                new RegisterRequest(V1, null, List.of(), null, null, null, unnamed)).orElseThrow().error());
        journal(new SetMode(null, Mode.IMPORT));
        view = h.access.view();
        assertEquals(ErrorCode.OPERATION_NOT_PERMITTED, RegistrationDecision.admit(view, s, settings("orders"),
                RegistryHarness.avro(V1)).orElseThrow().error(), "IMPORT mode without an id");
        assertTrue(RegistrationDecision.admit(view, s, settings("orders"), RegistryHarness.imported(V1, 5, 1))
                .isEmpty());
    }

    @Test
    void decidingFillsNoCacheTheCallerKeepsWhatWasRead() {
        long id = h.register("orders", V1);
        h.register("orders", V2);
        SchemaParsing fresh = new SchemaParsing(new io.quire.node.config.QuireConfig.Limits(1 << 20, 64, 16, 10_000),
                false);
        RegistryView view = h.access.view();
        Subject s = Subject.of("orders");
        ParsedSchema<?> parsed = fresh.parse(view, s.context(), SchemaType.AVRO, V1, List.of(), false);
        LearningReads reads = fresh.learning(view);
        Known k = assertInstanceOf(Known.class, RegistrationDecision.decide(reads, view, s, settings("orders"), parsed,
                RegistryHarness.avro(V1)));
        assertEquals(SchemaId.of(id), k.id());
        assertEquals(0, fresh.cachedFingerprints(), "decide put nothing in the caches");
        assertEquals(0, fresh.cachedContracts());
        fresh.remember(reads);
        assertEquals(1, fresh.cachedFingerprints(), "the caller keeps the id it found");
        assertTrue(fresh.cachedContracts() >= 1, "and the contract it inherited from");
    }
}
