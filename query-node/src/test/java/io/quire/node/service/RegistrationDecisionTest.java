package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.ParsedSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A registration decided against a view alone: no journal is written, no id leased. */
class RegistrationDecisionTest {

    static final String V1 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
    static final String V2 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
            + "{\"name\":\"b\",\"type\":\"int\",\"default\":0}]}";
    static final String BREAKS = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"c\",\"type\":\"int\"}]}";

    final RegistryHarness h = new RegistryHarness();

    RegistrationDecision.Decision decide(String subject, String schema) {
        RegistryView view = h.access.view();
        Subject s = Subject.of(subject);
        ParsedSchema<?> parsed = h.parsing.parse(view, s.context(), SchemaType.AVRO, schema, List.of(), false);
        return RegistrationDecision.decide(h.parsing, view, s, parsed, RegistryHarness.avro(schema));
    }

    @Test
    void knownProposedOrRefusedWithoutWritingAnything() {
        long id = h.register("orders", V1);
        long position = h.access.view().position().offset().value();

        RegistrationDecision.Known known = assertInstanceOf(RegistrationDecision.Known.class, decide("orders", V1));
        assertEquals(SchemaId.of(id), known.id());
        assertEquals(Version.of(1), known.version());

        RegistrationDecision.Proposed next = assertInstanceOf(RegistrationDecision.Proposed.class, decide("orders", V2));
        assertTrue(next.existingId().isEmpty(), "new content: the caller leases an id");
        assertEquals(CompatibilityLevel.BACKWARD, next.level());
        assertEquals(h.access.view().revision(Subject.of("orders")), next.revision());
        assertEquals(SchemaId.of(77), next.command(SchemaId.of(77)).proposedId());

        // the same content under another subject keeps its id
        RegistrationDecision.Proposed elsewhere = assertInstanceOf(RegistrationDecision.Proposed.class,
                decide("payments", V1));
        assertEquals(SchemaId.of(id), elsewhere.existingId().orElseThrow());

        RegistryException refused = assertThrows(RegistryException.class, () -> decide("orders", BREAKS));
        assertEquals(ErrorCode.INCOMPATIBLE_SCHEMA, refused.error());
        assertEquals(position, h.access.view().position().offset().value(), "deciding wrote nothing");
    }
}
