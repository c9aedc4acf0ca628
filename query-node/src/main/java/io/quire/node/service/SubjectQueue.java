package io.quire.node.service;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Subject;
import io.quire.node.error.RegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs the writes of one subject on this node one after another, each after the previous one has
 * been applied here: concurrent registrations to one subject then never conflict with each other
 * on this node (each is checked against the version its predecessor created), and they get their
 * versions in arrival order. Subjects do not wait for one another. At most {@code maxWaiting}
 * writes wait per subject; one more is refused with 429, so that one noisy subject cannot pile up
 * the node's memory.
 */
final class SubjectQueue {

    /** One subject's chain: the completion of its last write, and how many are queued or running. */
    private static final class Lane {
        CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
        int waiting;
    }

    private final Map<Subject, Lane> lanes = new ConcurrentHashMap<>();
    private final int maxWaiting;

    SubjectQueue(int maxWaiting) {
        this.maxWaiting = maxWaiting;
    }

    <T> CompletableFuture<T> run(Subject subject, Supplier<CompletableFuture<T>> task) {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        List<CompletableFuture<Void>> before = new ArrayList<>(1);
        lanes.compute(subject, (k, lane) -> {
            Lane l = lane == null ? new Lane() : lane;
            if (l.waiting < maxWaiting) { // all bookkeeping inside compute: atomic per subject
                before.add(l.tail);
                l.tail = mine;
                l.waiting++;
            }
            return l;
        });
        if (before.isEmpty()) {
            return CompletableFuture.failedFuture(RegistryException.retryLater(ErrorCode.TOO_MANY_REQUESTS, 1,
                    maxWaiting + " writes to subject '" + subject + "' are already waiting on this node; retry"));
        }
        // The task hops to its own executor itself (and turns a refusal into a failed future), so
        // starting it on whichever thread finished the previous write is cheap and safe.
        CompletableFuture<T> result = before.get(0).thenCompose(v -> task.get());
        result.whenComplete((v, err) -> {
            lanes.computeIfPresent(subject, (k, l) -> --l.waiting == 0 ? null : l);
            mine.complete(null);
        });
        return result;
    }

}
