package io.quire.journal.command;

import io.quire.journal.model.Subject;

/**
 * A node takes, renews or gives up ({@code leaseMillis} 0) the lease on a task that exactly one
 * node of the registry runs at a time (the {@code Schema} resources' reconciler, for one). Granted,
 * by the record's own time, when the lease is free, expired or already the node's: the journal's
 * order decides between nodes that claim together, as it does for exporters and id blocks.
 */
public record TakeLease(String name, String node, long leaseMillis) implements Command {

    @Override
    public CommandType type() {
        return CommandType.TAKE_LEASE;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
