package io.quire.node.service;

import static io.quire.node.service.RegistryHarness.get;
import static io.quire.node.service.RegistryHarness.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Context;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Rule;
import io.quire.journal.model.RuleKind;
import io.quire.journal.model.RuleMode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.api.Registered;
import io.quire.node.api.SchemaVersion;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Data contracts through the real services and applier over an in-memory journal: what is stored,
 * what a registration without a contract inherits, what identity a contract gives, and how a
 * client finds a version by its metadata.
 */
class DataContractRulesTest {

    final RegistryHarness h = new RegistryHarness();
    final Registry r = h.registry;
    final Subject orders = Subject.of("orders-value");

    static final String V1 = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";
    static final String V2 = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
            + "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}]}";

    static Metadata owner(String who, String major) {
        return Metadata.of(Map.of("Order.id", Set.of("PII")), Map.of("owner", who, "major", major), Set.of("id"));
    }

    static RuleSet positiveIds() {
        return new RuleSet(null, List.of(new Rule("checkId", null, RuleKind.CONDITION, RuleMode.WRITE, "CEL", null,
                null, "message.id > 0", null, "ERROR", false)), null);
    }

    static RegisterRequest avro(String schema, Metadata m, RuleSet rules) {
        return new RegisterRequest(schema, null, List.of(), null, null, m, rules);
    }

    Registered register(RegisterRequest req) {
        return get(() -> r.registrations().register(orders, req, false, Principal.of("tester"))).value();
    }

    SchemaVersion version(int v) {
        return r.subjects().version(orders, VersionSpec.parse(Integer.toString(v)), false);
    }

    @Test
    void aContractIsStoredReturnedAndAnsweredWithTheWholeVersion() {
        Registered first = register(avro(V1, owner("team-a", "1"), positiveIds()));
        assertEquals(Version.of(1), first.stored().version(), "the answer is the version as stored");
        assertEquals(owner("team-a", "1"), first.stored().metadata());
        SchemaVersion stored = version(1);
        assertEquals(owner("team-a", "1"), stored.metadata());
        assertEquals(positiveIds(), stored.ruleSet());
        assertEquals(positiveIds(), r.schemas().schema(Context.DEFAULT, first.id()).ruleSet(), "by id too");
        assertNull(get(() -> r.registrations().register(Subject.of("plain"), avro(V1, null, null), false, Principal.of("t")))
                .value().stored(), "without a contract the answer is the id alone");
    }

    @Test
    void aRegistrationWithoutAContractInheritsTheLatestVersionsAndTheSameContentKeepsItsId() {
        Registered first = register(avro(V1, owner("team-a", "1"), positiveIds()));
        assertEquals(first.id(), register(avro(V1, null, null)).id(), "inherits, so it is the same content");
        Registered second = register(avro(V2, null, null));
        assertEquals(owner("team-a", "1"), version(2).metadata(), "metadata inherited from version 1");
        assertEquals(positiveIds(), version(2).ruleSet(), "rules inherited from version 1");
        assertEquals(second.id(), register(avro(V2, owner("team-a", "1"), positiveIds())).id());
    }

    @Test
    void anotherContractIsAnotherIdAndTheBareSchemaFindsItsVersion() {
        Registered a = register(avro(V1, owner("team-a", "1"), null));
        Registered b = register(avro(V1, owner("team-b", "1"), null));
        assertNotEquals(a.id(), b.id(), "the contract is part of the content");
        assertEquals(Version.of(2), b.stored().version());
        SchemaVersion found = get(() -> r.registrations().lookup(orders, avro(V1, null, null), false, false));
        assertEquals(Version.of(2), found.version(), "the newest version with that schema, whatever its contract");
        SchemaVersion exact = get(() -> r.registrations().lookup(orders, avro(V1, owner("team-a", "1"), null),
                false, false));
        assertEquals(a.id(), exact.id());
        SchemaId plain = get(() -> r.registrations().register(Subject.of("other"), avro(V1, null, null), false, Principal.of("t")))
                .value().id();
        assertNotEquals(a.id(), plain);
        assertNotEquals(b.id(), plain);
    }

    @Test
    void theLatestVersionWithGivenMetadataIsFoundByItsProperties() {
        register(avro(V1, owner("team-a", "1"), null));
        register(avro(V2, owner("team-a", "2"), null));
        assertEquals(Version.of(1), r.subjects().latestWithMetadata(orders, Map.of("major", "1"), false, null).version());
        assertEquals(Version.of(2), r.subjects().latestWithMetadata(orders, Map.of("owner", "team-a"), false, null)
                .version());
        assertEquals(40403, refusal(() -> java.util.concurrent.CompletableFuture.supplyAsync(
                () -> r.subjects().latestWithMetadata(orders, Map.of("major", "3"), false, null))));
        assertEquals(40401, refusal(() -> java.util.concurrent.CompletableFuture.supplyAsync(
                () -> r.subjects().latestWithMetadata(Subject.of("nobody"), Map.of(), false, null))));
    }

    @Test
    void aBrokenRuleSetIs42210AndReachesNothing() {
        int before = h.journal.size();
        RuleSet duplicate = new RuleSet(null, List.of(positiveIds().domainRules().get(0),
                positiveIds().domainRules().get(0)), null);
        assertEquals(42210, refusal(() -> r.registrations().register(orders, avro(V1, null, duplicate), false, Principal.of("t"))));
        RuleSet migrationAsDomain = new RuleSet(List.of(new Rule("up", null, null, RuleMode.WRITE, "JSONATA", null,
                null, "$", null, null, false)), null, null);
        assertEquals(42210, refusal(() -> r.registrations().register(orders, avro(V1, null, migrationAsDomain), false,
                Principal.of("t"))));
        RuleSet badName = new RuleSet(null, List.of(new Rule("9lives", null, null, null, "CEL", null, null, "true",
                null, null, false)), null);
        assertEquals(42210, refusal(() -> r.registrations().register(orders, avro(V1, null, badName), false, Principal.of("t"))));
        assertEquals(before, h.journal.size(), "refused at the edge");
    }

    @Test
    void configDefaultsAndOverridesAreMergedInConfluentsOrder() {
        ConfigFields config = new ConfigFields(null, null, null, null,
                Metadata.of(null, Map.of("owner", "default", "tier", "gold"), null),
                Metadata.of(null, Map.of("owner", "platform"), null),
                new RuleSet(null, List.of(rule("fromDefault", "true")), null),
                new RuleSet(null, List.of(rule("checkId", "message.id > 100")), null));
        get(() -> r.settings().setConfig(orders, null, null, config, List.of(), Principal.of("t")));
        register(avro(V1, Metadata.of(null, Map.of("owner", "team-a", "major", "1"), null), positiveIds()));
        SchemaVersion v1 = version(1);
        assertEquals(Map.of("owner", "platform", "tier", "gold", "major", "1"), v1.metadata().properties(),
                "default, then the request, then the override");
        assertEquals(List.of("fromDefault", "checkId"), v1.ruleSet().domainRules().stream().map(Rule::name).toList());
        assertEquals("message.id > 100", v1.ruleSet().domainRules().get(1).expr(), "the override's rule of that name wins");
    }

    @Test
    void aCompatibilityGroupChecksOnlyVersionsOfTheSameGroup() {
        get(() -> r.settings().setConfig(orders, "BACKWARD", null,
                new ConfigFields(null, null, null, "major", null, null, null, null), List.of(), Principal.of("t")));
        register(avro(V1, Metadata.of(null, Map.of("major", "1"), null), null));
        String incompatible = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
        assertEquals(409, refusal(() -> r.registrations().register(orders, avro(incompatible, null, null), false, Principal.of("t"))),
                "inherits major=1, so it is checked against version 1");
        Registered major2 = register(avro(incompatible, Metadata.of(null, Map.of("major", "2"), null), null));
        assertEquals(Version.of(2), major2.stored().version(), "a new major version starts a new group");
    }

    @Test
    void aPartialConfigUpdateChangesOnlyWhatItNamesAndNullClears() {
        get(() -> r.settings().setConfig(orders, "FULL", null, null, List.of(), Principal.of("t")));
        get(() -> r.settings().setConfig(orders, null, null,
                new ConfigFields("orders-alias", true, null, "major", null, null, null, null), List.of(), Principal.of("t")));
        assertEquals(CompatibilityLevel.FULL, r.settingsReads().subjectLevel(orders, false).orElseThrow(),
                "the level is kept");
        assertEquals("major", r.settingsReads().subjectFields(orders, false).compatibilityGroup());
        get(() -> r.settings().setConfig(orders, null, null, null, List.of("compatibilityGroup"), Principal.of("t")));
        ConfigFields now = r.settingsReads().subjectFields(orders, false);
        assertNull(now.compatibilityGroup());
        assertEquals("orders-alias", now.alias());
        assertEquals(42203, refusal(() -> r.settings().setConfig(orders, null, null, null, List.of(), Principal.of("t"))),
                "an update of nothing");
        assertEquals(42210, refusal(() -> r.settings().setConfig(orders, null, null, new ConfigFields(null, null,
                null, null, null, null, new RuleSet(null, List.of(rule("x", "a"), rule("x", "b")), null), null),
                List.of(), Principal.of("t"))));
        get(() -> r.settings().deleteConfig(orders, Principal.of("t")));
        assertEquals(ConfigFields.NONE, r.settingsReads().subjectFields(orders, false), "delete removes every field");
    }

    @Test
    void reRegisteringAnOlderSchemaWithoutAContractFindsItsVersionAsConfluentDoes() {
        Registered v1 = register(avro(V1, owner("team-a", "1"), null));
        register(avro(V2, owner("team-a", "2"), null));
        Registered again = register(avro(V1, null, null));
        assertEquals(v1.id(), again.id(), "the stored version, not V1 under version 2's contract");
        assertEquals(List.of(Version.of(1), Version.of(2)), r.subjects().versions(orders, false, false));
    }

    @Test
    void confluentVersionInTheMetadataFollowsTheVersionNumber() {
        register(avro(V1, Metadata.of(null, Map.of("confluent:version", "1", "owner", "a"), null), null));
        Registered v2 = register(avro(V2, null, null));
        assertEquals("2", v2.stored().metadata().properties().get("confluent:version"), "inherited, then set to 2");
        assertEquals("a", v2.stored().metadata().properties().get("owner"));
        assertEquals(v2.id(), register(avro(V2, null, null)).id(), "registering it again changes nothing");
        assertEquals(List.of(Version.of(1), Version.of(2)), r.subjects().versions(orders, false, false));
    }

    static Rule rule(String name, String expr) {
        return new Rule(name, null, RuleKind.CONDITION, RuleMode.WRITE, "CEL", null, null, expr, null, null, false);
    }
}
