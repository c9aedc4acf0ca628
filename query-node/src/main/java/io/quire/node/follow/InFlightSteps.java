package io.quire.node.follow;

import io.quire.node.confluent.LogRecord;
import io.quire.node.write.Applied;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The follower's steps sent to the journal and not yet known to be applied, in order, and what a
 * next record must wait for: a record whose outcome depends on a step in flight (a setting, a
 * delete, a tombstone, references, a subject with anything but imports in flight, or a version
 * whose import is in flight) waits until they are applied; a subject's next new version does not.
 */
final class InFlightSteps {

    /** A step sent and not yet known to be applied. */
    record Step(long offset, int part, Object subject, CompletableFuture<Applied> done) {
    }

    private final ArrayDeque<Step> steps = new ArrayDeque<>();
    /** The versions of each subject whose import is in flight. */
    private final Map<Object, Set<Integer>> importing = new HashMap<>();
    /** Subjects (and the registry's settings) with a step in flight other than an import. */
    private final Set<Object> settling = new HashSet<>();

    int size() {
        return steps.size();
    }

    boolean isEmpty() {
        return steps.isEmpty();
    }

    /** Whether {@code record} (of {@code subject}) can be decided only once everything in flight is applied. */
    boolean mustSettleBefore(LogRecord record, Object subject) {
        if (SourceRecords.needsSettledView(record) || settling.contains(subject)) {
            return true;
        }
        Set<Integer> versions = importing.get(subject); // a new schema version: it waits only for its own version
        return versions != null && versions.contains(SourceRecords.versionOf(record));
    }

    /** A step sent: {@code importedVersion} the version it imports, null for any other step. */
    void add(Step step, Integer importedVersion) {
        steps.add(step);
        if (importedVersion != null) {
            importing.computeIfAbsent(step.subject(), k -> new HashSet<>()).add(importedVersion);
        } else {
            settling.add(step.subject());
        }
    }

    /** The oldest step in flight, removed; null when none. */
    Step poll() {
        Step s = steps.poll();
        if (steps.isEmpty()) {
            importing.clear();
            settling.clear();
        }
        return s;
    }

    void clear() {
        steps.clear();
        importing.clear();
        settling.clear();
    }
}
