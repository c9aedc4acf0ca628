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
 * chained after the follower's tip before the first of them. A follower catching up thus pays the
 * journal's round trip, the applier's record and its hand-offs once per run instead of once per
 * source record.
 */
final class CopiedRun {

    /** What one run became: the command, its chained source position, and each import's record. */
    record Taken(Command command, Envelope.Source at, List<ImportSchemas.Copied> copied, List<Object> subjects,
                 List<Integer> versions) {

        /** The last source offset of a run of more than one record; -1 for a record sent alone. */
        long runEnd() {
            return copied.size() > 1 ? at.offset() : -1;
        }
    }

    private final List<ImportSchemas.Copied> copied = new ArrayList<>();
    private final List<Object> subjects = new ArrayList<>();
    private final List<Integer> versions = new ArrayList<>();
    private long prevOffset;
    private int prevPart;

    boolean isEmpty() {
        return copied.isEmpty();
    }

    int size() {
        return copied.size();
    }

    /**
     * Adds the import of source record {@code offset} ({@code version}: the version the record
     * names); {@code tipOffset}/{@code tipPart}: the step sent before it.
     */
    void add(long offset, Object subject, Integer version, ImportSchema schema, long tipOffset, int tipPart) {
        if (copied.isEmpty()) {
            prevOffset = tipOffset;
            prevPart = tipPart;
        }
        copied.add(new ImportSchemas.Copied(offset, schema));
        subjects.add(subject);
        versions.add(version);
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

    /** The run as one command from {@code source}, leaving it empty. */
    Taken take(String source) {
        List<ImportSchemas.Copied> run = List.copyOf(copied);
        List<Object> names = List.copyOf(subjects);
        List<Integer> numbers = new ArrayList<>(versions); // a record may name no version
        clear();
        Envelope.Source at = new Envelope.Source(source, run.get(run.size() - 1).sourceOffset(), 0)
                .after(prevOffset, prevPart);
        Command command = run.size() == 1 ? run.get(0).schema() : new ImportSchemas(run);
        return new Taken(command, at, run, names, numbers);
    }

    /**
     * Sends the run, if any, to {@code journal} as one record and adds its imports to {@code
     * inFlight}, each waiting for that record; leaves the run empty.
     */
    void sendTo(JournalPort journal, Principal principal, String source, InFlightSteps inFlight) {
        if (copied.isEmpty()) {
            return;
        }
        Taken t = take(source);
        CompletableFuture<Applied> done;
        try {
            done = journal.submit(t.command(), principal, t.at());
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        for (int i = 0; i < t.copied().size(); i++) {
            inFlight.add(new InFlightSteps.Step(t.copied().get(i).sourceOffset(), 0, t.subjects().get(i), done,
                    t.versions().get(i), t.runEnd()));
        }
    }

    void clear() {
        copied.clear();
        subjects.clear();
        versions.clear();
    }
}
