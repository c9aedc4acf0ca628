package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.Registered;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * A subject's registrations decided together (VersionGroups) against the same registrations one at
 * a time: for random sequences of evolving, incompatible and repeated schemas under every ordered
 * level, every client gets the same verdict (the same version, or the same refusal code) and the
 * subject ends with the same versions. The grouped run's journal is held while the registrations
 * arrive, as a real journal's round trip holds them, so they wait in the subject's lane and go as
 * groups.
 */
class VersionGroupsTest {

    static final Subject SUBJECT = Subject.of("orders-value");
    static final String[] FIELDS = {
        "{\"name\":\"b\",\"type\":[\"null\",\"string\"],\"default\":null}",
        "{\"name\":\"c\",\"type\":\"long\",\"default\":0}",
        "{\"name\":\"d\",\"type\":\"string\"}",
        "{\"name\":\"e\",\"type\":\"int\"}",
        "{\"name\":\"f\",\"type\":[\"null\",\"int\"],\"default\":null}",
    };
    static final CompatibilityLevel[] LEVELS = {CompatibilityLevel.BACKWARD, CompatibilityLevel.BACKWARD_TRANSITIVE,
        CompatibilityLevel.FORWARD, CompatibilityLevel.FORWARD_TRANSITIVE, CompatibilityLevel.FULL,
        CompatibilityLevel.FULL_TRANSITIVE};

    /** A record with field a and the fields of {@code mask}. */
    static String schema(int mask) {
        StringBuilder b = new StringBuilder("{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}");
        for (int i = 0; i < FIELDS.length; i++) {
            if ((mask & (1 << i)) != 0) {
                b.append(',').append(FIELDS[i]);
            }
        }
        return b.append("]}").toString();
    }

    record Run(List<String> verdicts, List<String> versions, List<String> journal) {
    }

    static String verdict(CompletableFuture<Written<Registered>> f, RegistryHarness h) {
        try {
            Registered r = f.join().value();
            var versions = h.journal.view().usages().versionsWithId(SUBJECT, r.id());
            return "id of v" + versions; // the versions holding the id answered: the same in both runs
        } catch (CompletionException e) {
            return "refused " + ((RegistryException) e.getCause()).error().code;
        }
    }

    static Run run(CompatibilityLevel level, List<String> schemas, boolean grouped) {
        RegistryHarness h = new RegistryHarness();
        h.register(SUBJECT.name(), schema(0));
        RegistryHarness.get(() -> h.registry.settings().setConfig(SUBJECT, level.name(), null, Principal.of("t")));
        List<CompletableFuture<Written<Registered>>> answers = new ArrayList<>();
        if (grouped) {
            h.journal.hold();
        }
        for (String s : schemas) {
            CompletableFuture<Written<Registered>> f;
            try {
                f = h.registry.registrations().register(SUBJECT, RegistryHarness.avro(s), false, Principal.of("t"));
            } catch (RegistryException e) {
                f = CompletableFuture.failedFuture(e);
            }
            answers.add(f);
            if (!grouped) {
                f.exceptionally(e -> null).join();
            }
        }
        for (int spins = 0; grouped && answers.stream().anyMatch(f -> !f.isDone()); spins++) {
            assertTrue(spins < 10_000, "every registration is answered");
            h.journal.release();
        }
        List<String> verdicts = answers.stream().map(f -> verdict(f, h)).toList();
        List<String> versions = h.journal.view().versions(SUBJECT).stream()
                .map(v -> v.version() + " " + h.journal.view().schemaOf(SUBJECT, v).orElseThrow().schema()).toList();
        return new Run(verdicts, versions, h.journal.types());
    }

    @Test
    void groupedRegistrationsGetTheVerdictsAndVersionsOfOneAtATime() {
        Random random = new Random(42);
        int groups = 0;
        int cases = 300;
        for (int c = 0; c < cases; c++) {
            CompatibilityLevel level = LEVELS[random.nextInt(LEVELS.length)];
            List<String> schemas = new ArrayList<>();
            int n = 2 + random.nextInt(25);
            for (int i = 0; i < n; i++) {
                schemas.add(schema(random.nextInt(1 << FIELDS.length)));
            }
            Run alone = run(level, schemas, false);
            Run grouped = run(level, schemas, true);
            String where = "case " + c + ", " + level + ", " + schemas;
            assertEquals(alone.verdicts(), grouped.verdicts(), where);
            assertEquals(alone.versions(), grouped.versions(), where);
            assertTrue(!alone.journal().contains("RegisterVersions"), "one at a time never groups");
            groups += (int) grouped.journal().stream().filter("RegisterVersions"::equals).count();
        }
        assertTrue(groups > cases / 4, "registrations went as groups: " + groups + " groups in " + cases + " cases");
    }

    @Test
    void twentyEvolvingVersionsGoAsFewRecordsInOrder() {
        List<String> schemas = new ArrayList<>();
        StringBuilder fields = new StringBuilder("{\"name\":\"a\",\"type\":\"int\"}");
        for (int i = 0; i < 20; i++) {
            fields.append(",{\"name\":\"x").append(i).append("\",\"type\":[\"null\",\"int\"],\"default\":null}");
            schemas.add("{\"type\":\"record\",\"name\":\"Order\",\"fields\":[" + fields + "]}");
        }
        Run grouped = run(CompatibilityLevel.BACKWARD_TRANSITIVE, schemas, true);
        for (int i = 0; i < 20; i++) {
            assertEquals("id of v[" + (i + 2) + "]", grouped.verdicts().get(i), "arrival order is version order");
        }
        // version 1, then the first arrival alone (its lane was empty), then the 19 that waited behind it as one group
        assertEquals(List.of("LeaseIdBlock", "RegisterSchema", "SetConfig", "RegisterSchema", "RegisterVersions"),
                grouped.journal());
    }
}
