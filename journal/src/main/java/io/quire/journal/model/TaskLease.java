package io.quire.journal.model;

/**
 * Who runs a task that one node runs at a time, and until when (journal time, milliseconds);
 * {@code holder} null once given up.
 */
public record TaskLease(String name, String holder, long until) {

    /** Whether {@code node} may take this lease at journal time {@code now}: free, expired, or its own. */
    public boolean freeFor(String node, long now) {
        return free(holder, until, node, now);
    }

    /** The one rule of a journaled lease, for tasks and exporters alike. */
    public static boolean free(String holder, long until, String node, long now) {
        return holder == null || holder.equals(node) || now >= until;
    }

    /** Whether {@code node} holds it at wall time {@code now}. */
    public boolean heldBy(String node, long now) {
        return node.equals(holder) && now < until;
    }
}
