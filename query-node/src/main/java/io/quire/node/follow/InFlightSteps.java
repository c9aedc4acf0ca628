package io.quire.node.follow;

import io.quire.journal.outcome.Rejected;
import io.quire.node.confluent.LogRecord;
import io.quire.node.write.Applied;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The follower's steps sent to the journal and not yet known to be applied, in order, and what a
 * next record must wait for: a record whose outcome depends on a step in flight (a setting, a
 * delete, a tombstone, references, a subject with anything but imports in flight, or a version
 * whose import is in flight) waits until they are applied; a subject's next new version does not.
 */
final class InFlightSteps {

    /**
     * A step sent and not yet known to be applied; {@code importedVersion} the version it imports,
     * null for any other step; {@code runEnd} the last source offset of the run it was sent in as
     * one record ({@link CopiedRun}), -1 when it went alone.
     */
    record Step(long offset, int part, Object subject, CompletableFuture<Applied> done, Integer importedVersion,
                long runEnd) {

        Step(long offset, int part, Object subject, CompletableFuture<Applied> done, Integer importedVersion) {
            this(offset, part, subject, done, importedVersion, -1);
        }
    }

    private final ArrayDeque<Step> steps = new ArrayDeque<>();
    /** The versions of each subject whose import is in flight. */
    private final Map<Object, Set<Integer>> importing = new HashMap<>();
    /** Subjects (and the registry's settings) with steps in flight other than imports: how many. */
    private final Map<Object, Integer> settling = new HashMap<>();

    int size() {
        return steps.size();
    }

    boolean isEmpty() {
        return steps.isEmpty();
    }

    /** Whether {@code record} (of {@code subject}) can be decided only once everything in flight is applied. */
    boolean mustSettleBefore(LogRecord record, Object subject) {
        if (SourceRecords.needsSettledView(record) || settling.containsKey(subject)) {
            return true;
        }
        Set<Integer> versions = importing.get(subject); // a new schema version: it waits only for its own version
        return versions != null && versions.contains(SourceRecords.versionOf(record));
    }

    /** A step sent. */
    void add(Step step) {
        steps.add(step);
        if (step.importedVersion() != null) {
            importing.computeIfAbsent(step.subject(), k -> new HashSet<>()).add(step.importedVersion());
        } else {
            settling.merge(step.subject(), 1, Integer::sum);
        }
    }

    /** The oldest step in flight, removed (and no longer waited for by later records); null when none. */
    Step poll() {
        Step s = steps.poll();
        if (s == null) {
            return null;
        }
        if (s.importedVersion() != null) {
            Set<Integer> versions = importing.get(s.subject());
            if (versions != null && versions.remove(s.importedVersion()) && versions.isEmpty()) {
                importing.remove(s.subject());
            }
        } else {
            settling.computeIfPresent(s.subject(), (k, n) -> n > 1 ? n - 1 : null);
        }
        return s;
    }

    /** Waits for {@code s} at most {@code timeoutMs}: null when it was applied, else why not. */
    static String failure(Step s, long timeoutMs) throws InterruptedException {
        try {
            Applied a = s.done().get(timeoutMs, TimeUnit.MILLISECONDS);
            return a.outcome() instanceof Rejected rej ? rej.message() : null;
        } catch (ExecutionException e) {
            return String.valueOf(e.getCause());
        } catch (TimeoutException e) {
            return "the journal did not apply it within " + timeoutMs + " ms";
        }
    }

    void clear() {
        steps.clear();
        importing.clear();
        settling.clear();
    }
}
