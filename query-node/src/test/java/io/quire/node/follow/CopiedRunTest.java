package io.quire.node.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Command;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.ImportSchemas;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** How the follower's plain new versions are gathered into journal records: chained, bounded, each import waiting for its record. */
class CopiedRunTest {

    record Sent(Command command, Envelope.Source at) {
    }

    final List<Sent> sent = new ArrayList<>();
    final JournalPort journal = new JournalPort() {
        @Override
        public CompletableFuture<Applied> submit(Command command, Principal principal) {
            throw new AssertionError("a copied record always names its source");
        }

        @Override
        public CompletableFuture<Applied> submit(Command command, Principal principal, Envelope.Source source) {
            sent.add(new Sent(command, source));
            return new CompletableFuture<>();
        }
    };
    final InFlightSteps inFlight = new InFlightSteps();

    static ImportSchema imported(String subject, int version, String schema) {
        return new ImportSchema(Subject.of(subject), SchemaType.AVRO, schema, List.of(),
                Fingerprint.parse("fp-" + schema.hashCode()), SchemaId.of(100 + version), Version.of(version));
    }

    CopiedRun run(int maxImports) {
        return new CopiedRun(journal, Principal.of("follower"), "confluent:k:9092/_schemas", inFlight, maxImports);
    }

    @Test
    void consecutiveImportsGoAsOneRecordChainedAfterTheTipBeforeTheFirst() {
        CopiedRun run = run(256);
        run.add(7, "a", 1, imported("a", 1, "\"string\""), 5, 1);
        run.add(8, "b", 1, imported("b", 1, "\"int\""), 7, 0);
        run.add(10, "a", 2, imported("a", 2, "\"long\""), 8, 0);
        assertTrue(run.imports("a", 2));
        assertFalse(run.imports("a", 3));
        assertTrue(sent.isEmpty(), "nothing is sent before the run is");
        run.send();
        assertTrue(run.isEmpty());
        ImportSchemas one = assertInstanceOf(ImportSchemas.class, sent.get(0).command());
        assertEquals(List.of(7L, 8L, 10L), one.schemas().stream().map(ImportSchemas.Copied::sourceOffset).toList());
        assertEquals(new Envelope.Source("confluent:k:9092/_schemas", 10, 0).after(5, 1), sent.get(0).at());
        assertEquals(3, inFlight.size());
        InFlightSteps.Step first = inFlight.poll();
        assertEquals(7, first.offset());
        assertEquals(10, first.runEnd(), "refused, the run's records go again one at a time up to its last");
        assertSame(first.done(), inFlight.poll().done(), "every import waits for the one record");

        run.add(12, "c", 1, imported("c", 1, "\"float\""), 10, 0);
        run.send();
        assertInstanceOf(ImportSchema.class, sent.get(1).command(), "one record alone goes as itself");
        assertEquals(new Envelope.Source("confluent:k:9092/_schemas", 12, 0).after(10, 0), sent.get(1).at());
        inFlight.poll();
        assertEquals(-1, inFlight.poll().runEnd());
        run.send();
        assertEquals(2, sent.size(), "an empty run sends nothing");
    }

    @Test
    void aRunIsSentWhenFullAndBeforeAnImportThatWouldTakeItPastItsBytes() {
        CopiedRun run = run(3);
        for (int i = 1; i <= 7; i++) {
            run.add(i, "s" + i, 1, imported("s" + i, 1, "\"s" + i + "\""), i - 1, 0);
        }
        assertEquals(2, sent.size(), "two full runs of three");
        assertEquals(new Envelope.Source("confluent:k:9092/_schemas", 6, 0).after(3, 0), sent.get(1).at());
        run.send();

        sent.clear();
        CopiedRun big = run(256);
        String half = "\"" + "x".repeat(CopiedRun.MAX_BYTES / 2) + "\"";
        big.add(20, "a", 1, imported("a", 1, half), 19, 0);
        big.add(21, "b", 1, imported("b", 1, half), 20, 0);
        assertEquals(1, sent.size(), "the second would take the run past its bytes: the first went alone");
        assertEquals(new Envelope.Source("confluent:k:9092/_schemas", 20, 0).after(19, 0), sent.get(0).at());
        String huge = "\"" + "y".repeat(CopiedRun.MAX_BYTES * 2) + "\"";
        big.add(22, "c", 1, imported("c", 1, huge), 21, 0);
        big.add(23, "d", 1, imported("d", 1, "\"int\""), 22, 0);
        big.send();
        assertEquals(List.of(21L, 22L, 23L), sent.stream().skip(1).map(s -> s.at().offset()).toList(),
                "a schema over the bound goes alone, then the next run starts");
    }
}
