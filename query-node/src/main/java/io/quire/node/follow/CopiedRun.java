package io.quire.node.follow;

import io.quire.journal.command.Command;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.ImportSchemas;
import io.quire.journal.model.Principal;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Plain new versions read from consecutive source records and not yet sent: they go to the journal
 * together as one {@link ImportSchemas} record (one record alone as its {@link ImportSchema}),
 * chained after the follower's tip before the first of them, and each waits in {@link
 * InFlightSteps} for that record. A follower catching up thus pays the journal's round trip, the
 * applier's record and its hand-offs once per run instead of once per source record. A run holds
 * at most {@code maxImports} imports and about {@link #MAX_BYTES} of schemas and search terms, so
 * it stays under Kafka's default record limit even on a journal topic whose limit the node could
 * not raise.
 */
final class CopiedRun {

    /** About the most bytes of schema text and search terms one run holds; a bigger schema goes alone. */
    static final int MAX_BYTES = 512 * 1024;
    /** What an import adds to its record besides its schema and terms (names, fingerprint, numbers). */
    private static final int PER_IMPORT_BYTES = 256;

    private final JournalPort journal;
    private final Principal principal;
    private final String source;
    private final InFlightSteps inFlight;
    private final int maxImports;
    private final List<ImportSchemas.Copied> copied = new ArrayList<>();
    private final List<Object> subjects = new ArrayList<>();
    private final List<Integer> versions = new ArrayList<>();
    private long bytes;
    private long prevOffset;
    private int prevPart;

    CopiedRun(JournalPort journal, Principal principal, String source, InFlightSteps inFlight, int maxImports) {
        this.journal = journal;
        this.principal = principal;
        this.source = source;
        this.inFlight = inFlight;
        this.maxImports = maxImports;
    }

    boolean isEmpty() {
        return copied.isEmpty();
    }

    /**
     * Adds the import of source record {@code offset} ({@code version}: the version the record
     * names); {@code tipOffset}/{@code tipPart}: the step sent before it. The run waiting is sent
     * first when the import would take it past {@link #MAX_BYTES}, and after it when it is full.
     */
    void add(long offset, Object subject, Integer version, ImportSchema schema, long tipOffset, int tipPart) {
        long size = size(schema);
        if (!copied.isEmpty() && bytes + size > MAX_BYTES) {
            send();
        }
        if (copied.isEmpty()) {
            prevOffset = tipOffset;
            prevPart = tipPart;
        }
        copied.add(new ImportSchemas.Copied(offset, schema));
        subjects.add(subject);
        versions.add(version);
        bytes += size;
        if (copied.size() >= maxImports) {
            send();
        }
    }

    static long size(ImportSchema schema) {
        long size = PER_IMPORT_BYTES + schema.schema().length();
        for (String terms : schema.index()) {
            size += terms.length();
        }
        return size;
    }

    /** Whether the run imports {@code version} of {@code subject} (a record naming it again waits for it). */
    boolean imports(Object subject, Integer version) {
        for (int i = 0; i < copied.size(); i++) {
            if (subjects.get(i).equals(subject) && version != null && version.equals(versions.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** The run waiting as one command: an {@link ImportSchemas}, or its one import alone. */
    private Command command() {
        return copied.size() == 1 ? copied.get(0).schema() : new ImportSchemas(copied);
    }

    /** Sends the run, if any, as one journal record; its imports wait for it in flight; the run is then empty. */
    void send() {
        if (copied.isEmpty()) {
            return;
        }
        Envelope.Source at = new Envelope.Source(source, copied.get(copied.size() - 1).sourceOffset(), 0)
                .after(prevOffset, prevPart);
        long runEnd = copied.size() > 1 ? at.offset() : -1;
        CompletableFuture<Applied> done;
        try {
            done = journal.submit(command(), principal, at);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        for (int i = 0; i < copied.size(); i++) {
            inFlight.add(new InFlightSteps.Step(copied.get(i).sourceOffset(), 0, subjects.get(i), done,
                    versions.get(i), runEnd));
        }
        clear();
    }

    /** Forgets the run waiting (the follower reads its records again). */
    void clear() {
        copied.clear();
        subjects.clear();
        versions.clear();
        bytes = 0;
    }
}
