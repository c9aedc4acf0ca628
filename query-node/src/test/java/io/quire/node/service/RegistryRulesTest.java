package io.quire.node.service;

import io.quire.journal.model.Principal;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static io.quire.journal.Values.vs;
import static io.quire.node.service.RegistryHarness.avro;
import static io.quire.node.service.RegistryHarness.get;
import static io.quire.node.service.RegistryHarness.imported;
import static io.quire.node.service.RegistryHarness.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Context;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Version;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The write rules of registrations, checks, deletes, levels, modes and IMPORT mode, through the
 * real services and the real applier over an in-memory journal: no broker, no HTTP.
 */
class RegistryRulesTest {

    final RegistryHarness h = new RegistryHarness();
    final Registry r = h.registry;

    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";
    static final String AGE_DEFAULT = "{\"name\":\"age\",\"type\":\"int\",\"default\":0}";
    static final String AGE = "{\"name\":\"age\",\"type\":\"int\"}";

    static String record(String name, String... fields) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[" + String.join(",", fields) + "]}";
    }

    List<Version> versions(String subject, boolean deleted) {
        return r.subjects().versions(s(subject), deleted, false);
    }

    @Test
    void theSameContentKeepsOneIdInEverySubjectAndAddsNoVersion() {
        long id = h.register("users", record("User", NAME));
        assertEquals(id, h.register("users", record("User", NAME)));
        assertEquals(id, h.register("copy", record("User", NAME)));
        assertEquals(vs(1), versions("users", false));
        assertNotEquals(id, h.register("users", record("User", NAME, AGE_DEFAULT)));
        assertEquals(vs(1, 2), versions("users", false));
    }

    @Test
    void anIncompatibleSchemaIsRefusedWith409AndChangesNothing() {
        h.register("orders", record("Order", NAME));
        int before = h.journal.size();
        assertEquals(409, refusal(() -> r.registrations().register(s("orders"), avro(record("Order", NAME, AGE)), false, Principal.of("t"))));
        assertEquals(before, h.journal.size(), "refused at the edge");
        assertFalse(get(() -> r.checks().checkCompatibility(s("orders"), VersionSpec.parse("latest"),
                avro(record("Order", NAME, AGE)))).isEmpty());
        assertEquals(40402, refusal(() -> r.checks().checkCompatibility(s("orders"), VersionSpec.parse("9"),
                avro(record("Order", NAME)))));
    }

    @Test
    void everyLevelChecksTheRightDirectionAndDepth() {
        String a = "{\"name\":\"a\",\"type\":\"string\"}";
        String b = "{\"name\":\"b\",\"type\":\"int\",\"default\":1}";
        String c = "{\"name\":\"c\",\"type\":\"int\"}";
        Object[][] cases = {
            {CompatibilityLevel.NONE, record("R", "{\"name\":\"z\",\"type\":\"int\"}"), true},
            {CompatibilityLevel.BACKWARD, record("R", b), true},
            {CompatibilityLevel.FORWARD, record("R", b), false},
            {CompatibilityLevel.FULL, record("R", b), false},
            {CompatibilityLevel.BACKWARD, record("R", a, b, c), false},
            {CompatibilityLevel.FORWARD, record("R", a, b, c), true},
            {CompatibilityLevel.BACKWARD_TRANSITIVE, record("R", a, b), true},
            {CompatibilityLevel.FULL_TRANSITIVE, record("R", a, b), true},
            {CompatibilityLevel.FORWARD_TRANSITIVE, record("R", a), true},
        };
        int n = 0;
        for (Object[] k : cases) {
            String subject = "levels-" + n++;
            h.register(subject, record("R", a));
            h.register(subject, record("R", a, b));
            get(() -> r.settings().setConfig(s(subject), ((CompatibilityLevel) k[0]).name(), null, Principal.of("t")));
            boolean ok = (Boolean) k[2];
            if (ok) {
                h.register(subject, (String) k[1]);
            } else {
                assertEquals(409, refusal(() -> r.registrations().register(s(subject), avro((String) k[1]), false, Principal.of("t"))),
                        k[0] + " " + k[1]);
            }
        }
        String x = "{\"name\":\"x\",\"type\":\"int\"}";
        String xl = "{\"name\":\"x\",\"type\":\"long\"}";
        String y = "{\"name\":\"y\",\"type\":\"int\",\"default\":0}";
        h.register("depth", record("D", x));
        get(() -> r.settings().setConfig(s("depth"), "FORWARD", null, Principal.of("t")));
        h.register("depth", record("D", x, y));
        get(() -> r.settings().setConfig(s("depth"), "BACKWARD", null, Principal.of("t")));
        h.register("depth", record("D", xl, y));
        get(() -> r.settings().setConfig(s("depth"), "FORWARD_TRANSITIVE", null, Principal.of("t")));
        assertFalse(get(() -> r.checks().checkCompatibility(s("depth"), null, avro(record("D", xl)))).isEmpty(),
                "every earlier version must read the new one");
        get(() -> r.settings().setConfig(s("depth"), "FORWARD", null, Principal.of("t")));
        assertTrue(get(() -> r.checks().checkCompatibility(s("depth"), null, avro(record("D", xl)))).isEmpty(),
                "FORWARD checks the latest only");
    }

    @Test
    void softDeleteHidesButKeepsIdsAndPermanentDeleteNeedsItFirst() {
        long id = h.register("del", record("Del", NAME));
        h.register("del", record("Del", NAME, AGE_DEFAULT));
        assertEquals(40405, refusal(() -> r.deletes().deleteSubject(s("del"), true, Principal.of("t"))));
        assertEquals(40407, refusal(() -> r.deletes().deleteVersion(s("del"), VersionSpec.parse("1"), true, Principal.of("t"))));
        assertEquals(v(1), get(() -> r.deletes().deleteVersion(s("del"), VersionSpec.parse("1"), false, Principal.of("t"))).value());
        assertEquals(40406, refusal(() -> r.deletes().deleteVersion(s("del"), VersionSpec.parse("1"), false, Principal.of("t"))));
        assertEquals(vs(2), versions("del", false));
        assertEquals(vs(1, 2), versions("del", true));
        assertEquals(vs(2), get(() -> r.deletes().deleteSubject(s("del"), false, Principal.of("t"))).value());
        assertEquals(40404, refusal(() -> r.deletes().deleteSubject(s("del"), false, Principal.of("t"))));
        assertTrue(r.schemas().schema(Context.DEFAULT, id(id)) != null, "a soft-deleted schema still resolves by id");
        assertEquals(vs(1, 2), get(() -> r.deletes().deleteSubject(s("del"), true, Principal.of("t"))).value());
        int before = h.journal.size();
        assertEquals(40401, refusal(() -> r.deletes().deleteSubject(s("del"), false, Principal.of("t"))));
        assertEquals(before, h.journal.size(), "a delete of nothing never reaches the journal");
    }

    @Test
    void levelsAndModesGlobalAndPerSubject() {
        assertEquals(Optional.empty(), r.settingsReads().subjectLevel(s("cfg"), false));
        assertEquals(CompatibilityLevel.BACKWARD, r.settingsReads().subjectLevel(s("cfg"), true).orElseThrow());
        get(() -> r.settings().setConfig(s("cfg"), "full", null, Principal.of("t")));
        assertEquals(CompatibilityLevel.FULL, r.settingsReads().subjectLevel(s("cfg"), false).orElseThrow());
        assertEquals(42203, refusal(() -> r.settings().setConfig(s("cfg"), "SIDEWAYS", null, Principal.of("t"))));
        assertEquals(42203, refusal(() -> r.settings().setConfig(s("cfg"), "FULL ", null, Principal.of("t"))));
        assertEquals(CompatibilityLevel.FULL, get(() -> r.settings().deleteConfig(s("cfg"), Principal.of("t"))).value());
        assertEquals(40401, refusal(() -> r.settings().deleteConfig(s("cfg"), Principal.of("t"))), "Confluent's deleteSubjectConfig");

        assertEquals(42204, refusal(() -> r.settings().setMode(s("ro"), "SOMETIMES", false, Principal.of("t"))));
        get(() -> r.settings().setMode(s("ro"), "READONLY", false, Principal.of("t")));
        assertEquals(42205, refusal(() -> r.registrations().register(s("ro"), avro(record("Ro", NAME)), false, Principal.of("t"))));
        assertEquals(Mode.READONLY, get(() -> r.settings().deleteMode(s("ro"), Principal.of("t"))).value());
        assertEquals(40409, refusal(() -> r.settings().deleteMode(s("ro"), Principal.of("t"))));
        h.register("ro", record("Ro", NAME));
    }

    @Test
    void importKeepsIdsAndVersionsAndLaterIdsNeverCollide() {
        assertEquals(1, h.register("existing", record("Existing", NAME)), "the first block starts at 1");
        assertEquals(42205, refusal(() -> r.registrations().register(s("imp"), imported(record("A", NAME), 5, 1), false, Principal.of("t"))),
                "an id outside import mode");
        assertEquals(42205, refusal(() -> r.settings().setMode(null, "IMPORT", false, Principal.of("t"))),
                "IMPORT on a registry with subjects needs force");
        get(() -> r.settings().setMode(s("imp"), "IMPORT", false, Principal.of("t")));
        assertEquals(42205, refusal(() -> r.registrations().register(s("imp"), avro(record("A", NAME)), false, Principal.of("t"))),
                "import mode needs the id");
        assertEquals(id(5), get(() -> r.registrations().register(s("imp"),
                imported(record("A", NAME, "{\"name\":\"c\",\"type\":\"int\"}"), 5, 3), false, Principal.of("t"))).value().id());
        assertEquals(id(3), get(() -> r.registrations().register(s("imp"), imported(record("A", NAME), 3, 1), false, Principal.of("t"))).value().id());
        assertEquals(id(4), get(() -> r.registrations().register(s("imp"), imported(record("B", NAME), 4, 0), false, Principal.of("t"))).value().id(),
                "version 0: the next one");
        assertEquals(vs(1, 3, 4), versions("imp", false));
        int before = h.journal.size();
        assertEquals(42207, refusal(() -> r.registrations().register(s("imp"), imported(record("A", NAME), 9, 7), false, Principal.of("t"))),
                "known content under another id");
        assertEquals(42205, refusal(() -> r.registrations().register(s("imp"), imported(record("C", NAME), 3, 8), false, Principal.of("t"))),
                "another content under a known id");
        assertEquals(before, h.journal.size(), "refused at the edge");
        assertEquals(42205, refusal(() -> r.registrations().register(s("imp"), imported(record("D", NAME), 6, 1), false, Principal.of("t"))),
                "a version that exists with another id");
        assertEquals(id(3), get(() -> r.registrations().register(s("imp"), imported(record("A", NAME), 3, 1), false, Principal.of("t"))).value().id(),
                "importing the same thing again is idempotent");
        get(() -> r.settings().deleteMode(s("imp"), Principal.of("t")));
        Set<Long> ids = new HashSet<>(Set.of(1L, 3L, 4L, 5L));
        for (int i = 0; i < 20; i++) {
            long id = h.register("after-" + i, record("After" + i, NAME));
            assertTrue(ids.add(id), "id " + id + " handed out twice");
        }
    }
}
