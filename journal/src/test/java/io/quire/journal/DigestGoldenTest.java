package io.quire.journal;

import io.quire.journal.command.CommandId;
import io.quire.journal.model.Fingerprint;
import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static io.quire.journal.Values.vs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.SchemaType;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.Position;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replica digest covers codes and ids, not words: a release that rewords a message keeps
 * every node's digest, and the digest of a fixed journal is pinned by a golden value.
 */
class DigestGoldenTest {

    static RegisterSchema register(String subject, String content, long id, CompatibilityLevel level, long revision) {
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, List.of(), Fingerprint.parse("fp-" + content), id(id), level,
                at(revision));
    }

    /** Accepted and refused commands of every kind the digest must see. */
    static ReplayedJournal fixedJournal() {
        ReplayedJournal j = new ReplayedJournal();
        j.append(new LeaseIdBlock("node-a", "lease-1", 100));
        j.append(register("a", "\"string\"", 1, CompatibilityLevel.BACKWARD, -1));
        j.append(register("a", "\"string\"", 2, CompatibilityLevel.BACKWARD, -1));      // already there
        j.append(register("a", "\"int\"", 3, CompatibilityLevel.FULL, 1));              // conflict: level
        j.append(register("bad/\u0000", "\"int\"", 4, CompatibilityLevel.BACKWARD, -1)); // rejected: subject
        j.append(register("b", "\"long\"", 500, CompatibilityLevel.BACKWARD, -1));      // rejected: never leased
        j.append(new SetConfig(s("a"), CompatibilityLevel.NONE, null));
        j.append(new SetMode(s("a"), Mode.READONLY));
        j.append(register("a", "\"bytes\"", 5, CompatibilityLevel.NONE, 1));            // rejected: read-only
        j.append(new SetMode(s("a"), Mode.READWRITE));
        j.append(new DeleteSubject(s("a"), false));
        j.append(new DeleteSubject(s("a"), false));                                        // rejected: soft deleted
        j.append(new DeleteSubject(s("nobody"), true));                                    // rejected: not found
        return j;
    }

    @Test
    void theDigestOfAFixedJournalIsPinned() throws IOException {
        Position p = fixedJournal().view().position();
        assertEquals(Position.CURRENT_DIGEST_VERSION, p.digestVersion());
        try (InputStream in = getClass().getResourceAsStream("/golden/digest-v2.txt")) {
            String golden = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            assertEquals(golden, p.offset() + " " + p.digestHex(),
                    "the digest of the same journal changed: replicas of an older release would differ");
        }
    }

    @Test
    void messagesAreNotCoveredCodesAre() {
        byte[] one = JournalCodec.encodeDigestForm(CommandId.of("c"), new Rejected(ErrorCode.SUBJECT_NOT_FOUND, "Subject 'x' not found."));
        byte[] reworded = JournalCodec.encodeDigestForm(CommandId.of("c"), new Rejected(ErrorCode.SUBJECT_NOT_FOUND, "No subject x"));
        byte[] otherCode = JournalCodec.encodeDigestForm(CommandId.of("c"), new Rejected(ErrorCode.VERSION_NOT_FOUND, "No subject x"));
        assertArrayEquals(one, reworded);
        assertFalse(java.util.Arrays.equals(one, otherCode));
        assertArrayEquals(JournalCodec.encodeDigestForm(CommandId.of("c"), new Conflict("level changed")),
                JournalCodec.encodeDigestForm(CommandId.of("c"), new Conflict("the subject moved on")));
    }

    @Test
    void aViewStartedUnderVersionOneKeepsItsVersion() {
        Position v1 = Position.decode(new Position(at(7), new byte[32], 1).encode());
        assertEquals(1, v1.digestVersion());
        assertEquals(40, v1.encode().length, "version 1 positions keep their old layout");
        Position v2 = Position.decode(new Position(at(7), new byte[32], 2).encode());
        assertEquals(2, v2.digestVersion());
    }
}
