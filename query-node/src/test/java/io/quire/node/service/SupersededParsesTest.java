package io.quire.node.service;

import static io.quire.node.service.RegistryHarness.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.journal.model.Context;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import org.junit.jupiter.api.Test;

/**
 * A version checked against the latest alone takes that latest's place in the caches: the next
 * check reads the new one, so the one before it is not kept to be evicted later.
 */
class SupersededParsesTest {

    private final RegistryHarness h = new RegistryHarness();

    private static String version(int fields) {
        StringBuilder s = new StringBuilder("{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}");
        for (int i = 1; i < fields; i++) {
            s.append(",{\"name\":\"f").append(i).append("\",\"type\":[\"null\",\"string\"],\"default\":null}");
        }
        return s.append("]}").toString();
    }

    private SchemaId[] registerThree(String subject) {
        SchemaId[] ids = new SchemaId[3];
        for (int v = 0; v < 3; v++) {
            ids[v] = SchemaId.of(h.register(subject, version(v + 1)));
        }
        return ids;
    }

    @Test
    void aNonTransitiveCheckKeepsOnlyTheLatestParsed() {
        SchemaId[] ids = registerThree("orders");
        assertNull(h.parsing.cachedParsed(Context.DEFAULT, ids[1]), "version 2 was superseded by version 3");
        assertNotNull(h.parsing.cachedParsed(Context.DEFAULT, ids[2]), "version 3 is what the next check reads");
        assertNull(h.parsing.cachedContract(Context.DEFAULT, ids[1]));
        // the next version is still checked against the latest, and refused when it breaks it
        assertEquals(409, RegistryHarness.refusal(() -> h.registry.registrations().register(Subject.of("orders"),
                RegistryHarness.avro("{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}"),
                false, Principal.of("tester"))));
        SchemaId fourth = SchemaId.of(h.register("orders", version(4)));
        assertNull(h.parsing.cachedParsed(Context.DEFAULT, ids[2]));
        assertNotNull(h.parsing.cachedParsed(Context.DEFAULT, fourth));
    }

    @Test
    void aTransitiveCheckKeepsEveryVersionItReads() {
        get(() -> h.registry.settings().setConfig(Subject.of("audit"), "BACKWARD_TRANSITIVE", null, Principal.of("t")));
        SchemaId[] ids = registerThree("audit");
        assertNotNull(h.parsing.cachedParsed(Context.DEFAULT, ids[0]));
        assertNotNull(h.parsing.cachedParsed(Context.DEFAULT, ids[1]));
        assertNotNull(h.parsing.cachedParsed(Context.DEFAULT, ids[2]));
    }
}
