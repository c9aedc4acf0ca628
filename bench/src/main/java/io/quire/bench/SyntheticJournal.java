package io.quire.bench;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;

/**
 * A journal as {@code quire.jar journal export} writes it (NDJSON, offsets kept), made of what a
 * busy registry's journal holds: one id-block lease per 1,000 registrations and registrations of
 * Avro records, four versions per subject, each carrying the revision a real edge check would
 * have seen. {@code quire.jar journal import} loads it; a node replays it through the real applier.
 */
public final class SyntheticJournal {

    private SyntheticJournal() {
    }

    /** {@code java -cp quire-bench.jar io.quire.bench.SyntheticJournal FILE REGISTRATIONS} (bench/replay-compare.sh). */
    public static void main(String[] args) throws Exception {
        System.out.println(write(Path.of(args[0]), Integer.parseInt(args[1])));
    }

    /** Writes {@code registrations} registrations (plus leases) and returns the number of records. */
    static long write(Path file, int registrations) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long offset = 0;
        long lastOffsetOfSubject = -1;
        long nextId = 1;
        long blockEnd = 1;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < registrations; i++) {
                if (nextId >= blockEnd) {
                    line(w, offset++, new LeaseIdBlock("bench", "lease-" + offset, 1000));
                    blockEnd = nextId + 1000;
                }
                int version = i % 4;
                String subject = "replay-" + (i / 4) + "-value";
                String schema = "{\"type\":\"record\",\"name\":\"Replay" + (i / 4) + "\",\"fields\":["
                        + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"}"
                        + ",{\"name\":\"f" + version + "\",\"type\":\"int\",\"default\":0}]}";
                Fingerprint fingerprint = Fingerprint.ofDigest(sha.digest(schema.getBytes(StandardCharsets.UTF_8)));
                long revision = version == 0 ? -1 : lastOffsetOfSubject;
                lastOffsetOfSubject = offset;
                line(w, offset++, new RegisterSchema(Subject.of(subject), SchemaType.AVRO, schema, List.of(),
                        fingerprint, SchemaId.of(nextId++), CompatibilityLevel.BACKWARD, Offset.of(revision)));
            }
        }
        return offset;
    }

    private static final Principal BENCH = Principal.of("bench");

    private static void line(BufferedWriter w, long offset, Command c) throws IOException {
        String id = "synthetic-" + offset;
        byte[] value = JournalCodec.encode(Envelope.of(CommandId.of(id), "bench", BENCH, 1_764_460_800_000L + offset,
                c));
        w.write("{\"offset\":" + offset + ",\"key\":\"" + id + "\",\"value\":");
        w.write(new String(value, StandardCharsets.UTF_8));
        w.write("}\n");
    }
}
