package io.quire.node.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Command;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.Association;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.VersionRecord;
import io.quire.node.confluent.ConfluentLogCodec;
import io.quire.node.confluent.ConfluentLogCodecTest;
import io.quire.node.confluent.LogRecord;
import io.quire.node.ops.SourceState;
import io.quire.node.service.RegistryHarness;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The follower's reading of a Confluent {@code _schemas} topic and the one-shot import's agree: the
 * same records (as Confluent 8.x writes them), applied as the follower's journal commands to a view
 * and folded as the import folds them, leave the same versions, ids, deletes, settings and
 * associations, and both read a subject delete as Confluent's own reader does (versions 1 to the
 * record's version only).
 */
class SourceRecordsTest {

    static final Principal FOLLOWER = Principal.of("confluent-follower");

    final RegistryHarness h = new RegistryHarness();

    Outcome submit(Command c) throws Exception {
        return h.journal.submit(c, FOLLOWER).get(10, TimeUnit.SECONDS).outcome();
    }

    void follow(List<LogRecord> log) throws Exception {
        assertTrue(submit(new SetMode(null, Mode.IMPORT)).accepted());
        for (LogRecord record : log) {
            for (SourceRecords.Step step : SourceRecords.steps(h.access.view(), record)) {
                Command c = step instanceof SourceRecords.Import i
                        ? h.registry.registrations().prepareCopied(i.subject(), i.request())
                        : ((SourceRecords.Write) step).command();
                Outcome o = submit(c);
                assertTrue(o.accepted(), record + " -> " + c + ": " + (o instanceof Rejected r ? r.message() : o));
            }
        }
    }

    /** Subject version → "id deleted?", as the follower's view holds them. */
    static Map<String, String> versions(RegistryView view) {
        Map<String, String> out = new TreeMap<>();
        for (Subject s : view.scans().subjects("")) {
            for (VersionRecord v : view.versions(s)) {
                out.put(s.name() + " v" + v.version().number(), v.schemaId().value() + (v.deleted() ? " deleted" : ""));
            }
        }
        return out;
    }

    /** The same, as the import's fold holds them. */
    static Map<String, String> versions(SourceState state) {
        Map<String, String> out = new TreeMap<>();
        state.schemas().values().forEach(s -> out.put(s.subject() + " v" + s.version(),
                s.id() + (s.deleted() ? " deleted" : "")));
        return out;
    }

    @Test
    void theFollowerAndTheImportReadTheTopicAlike() throws Exception {
        List<LogRecord> log = new java.util.ArrayList<>();
        for (byte[][] kv : ConfluentLogCodecTest.records("schemas-topic.jsonl")) {
            log.add(ConfluentLogCodec.read(kv[0], kv[1]));
        }
        SourceState folded = new SourceState();
        log.forEach(folded::apply);
        follow(log);
        RegistryView view = h.access.view();

        Map<String, String> expected = new TreeMap<>(Map.of(
                "address v1", "1", "orders-value v1", "2", "orders-value v2", "3",
                "trimmed v1", "4 deleted", "trimmed v2", "5 deleted", "trimmed v3", "6",
                "dropped v1", "8 deleted", ":.eu:orders-value v1", "1", "plain v1", "9"));
        assertEquals(expected, versions(folded), "the import's fold");
        assertEquals(expected, versions(view), "the follower's view");

        assertEquals(CompatibilityLevel.FULL, view.config().globalLevel().orElseThrow());
        assertEquals("FULL", folded.configs().get("").compatibility());
        assertEquals(CompatibilityLevel.BACKWARD_TRANSITIVE, view.config().subjectLevel(Subject.of("orders-value")).orElseThrow());
        assertEquals("BACKWARD_TRANSITIVE", folded.configs().get("orders-value").compatibility());
        assertEquals(Boolean.TRUE, view.config().subjectFields(Subject.of("orders-value")).validateFields(),
                "the follower keeps a config's other fields too");
        assertEquals(view.config().subjectFields(Subject.of("orders-value")), folded.configs().get("orders-value").fields());
        assertTrue(view.config().subjectLevel(Subject.of("plain")).isEmpty(), "a config's tombstone removes it");
        assertTrue(!folded.configs().containsKey("plain"));
        assertEquals(Mode.READONLY, view.config().subjectMode(Subject.of("dropped")).orElseThrow());
        assertEquals("READONLY", folded.modes().get("dropped"));

        List<Association> held = view.associations().associations("t-orders", "topic");
        assertEquals(1, held.size(), held.toString());
        assertEquals(Subject.of("orders-value"), held.get(0).subject());
        assertEquals(1, folded.associations().size());
        assertEquals(Subject.of("orders-value"), folded.associations().values().iterator().next().subject());
    }

    /** Versions and deletes are decided against the view: read again, they ask nothing more. */
    @Test
    void aVersionOrDeleteReadAgainAsksNothingMore() throws Exception {
        List<LogRecord> log = new java.util.ArrayList<>();
        for (byte[][] kv : ConfluentLogCodecTest.records("schemas-topic.jsonl")) {
            log.add(ConfluentLogCodec.read(kv[0], kv[1]));
        }
        follow(log);
        for (LogRecord record : log) {
            if (!(record instanceof LogRecord.SchemaRecord || record instanceof LogRecord.DeleteSubjectRecord
                    || record instanceof LogRecord.ClearSubjectRecord)) {
                continue; // settings and associations are set again, to the same value
            }
            if (record instanceof LogRecord.SchemaRecord s && s.value() != null
                    && h.access.view().version(s.subject(), s.version()).isEmpty()) {
                continue; // removed later in the log: reading it again would bring it back, as at the source
            }
            assertEquals(List.of(), SourceRecords.steps(h.access.view(), record), "again: " + record);
        }
    }
}
