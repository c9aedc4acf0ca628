package io.quire.node.service;

import io.quire.journal.model.Subject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The registrations waiting for each subject on this node, handed to one round at a time: while
 * a round of a subject runs (decides, journals, waits until applied here), later arrivals wait;
 * the next round is offered everything waiting, up to {@code maxRound}, in arrival order. A round
 * settles the registrations it takes from the front and says how many; the rest go back to the
 * front. Subjects do not wait for one another. At most {@code maxWaiting} wait per subject; one
 * more is refused, so that one noisy subject cannot pile up the node's memory.
 */
final class SubjectLanes<P> {

    /** One round over a subject's waiting registrations: completes with how many of them it settled (at least one). */
    @FunctionalInterface
    interface Round<P> {
        CompletableFuture<Integer> run(Subject subject, List<P> waiting);
    }

    private static final class Lane<P> {
        final ArrayDeque<P> waiting = new ArrayDeque<>();
        boolean running;
    }

    private final Map<Subject, Lane<P>> lanes = new HashMap<>();
    private final int maxWaiting;
    private final int maxRound;
    private final Round<P> round;

    SubjectLanes(int maxWaiting, int maxRound, Round<P> round) {
        this.maxWaiting = maxWaiting;
        this.maxRound = maxRound;
        this.round = round;
    }

    /** Queues {@code p} behind the subject's other registrations; false when too many wait already. */
    boolean offer(Subject subject, P p) {
        List<P> first;
        synchronized (this) {
            Lane<P> lane = lanes.computeIfAbsent(subject, k -> new Lane<>());
            if (lane.waiting.size() >= maxWaiting) {
                return false;
            }
            lane.waiting.add(p);
            if (lane.running) {
                return true;
            }
            lane.running = true;
            first = take(lane);
        }
        drive(subject, first);
        return true;
    }

    /** Runs rounds until the lane is empty; a round that completes at once is followed in a loop, not a deeper call. */
    private void drive(Subject subject, List<P> batch) {
        while (batch != null) {
            CompletableFuture<Integer> settled;
            try {
                settled = round.run(subject, batch);
            } catch (RuntimeException e) {
                settled = CompletableFuture.failedFuture(e);
            }
            if (!settled.isDone()) {
                List<P> running = batch;
                settled.whenComplete((n, err) -> drive(subject, next(subject, running, err == null ? n : null)));
                return;
            }
            batch = next(subject, batch, settled.isCompletedExceptionally() ? null : settled.join());
        }
    }

    /** The next round's registrations, or null when none wait (the lane is closed). */
    private synchronized List<P> next(Subject subject, List<P> batch, Integer settled) {
        Lane<P> lane = lanes.get(subject);
        // a failed round settled its registrations itself; at least one is always settled
        int done = settled == null ? batch.size() : Math.max(1, Math.min(settled, batch.size()));
        for (int i = batch.size() - 1; i >= done; i--) {
            lane.waiting.addFirst(batch.get(i));
        }
        if (lane.waiting.isEmpty()) {
            lanes.remove(subject);
            return null;
        }
        return take(lane);
    }

    private List<P> take(Lane<P> lane) {
        List<P> out = new ArrayList<>(Math.min(maxRound, lane.waiting.size()));
        while (out.size() < maxRound && !lane.waiting.isEmpty()) {
            out.add(lane.waiting.poll());
        }
        return out;
    }
}
