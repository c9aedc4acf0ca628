package io.quire.journal.command;

import io.quire.journal.model.Offset;
import io.quire.journal.model.Subject;

/**
 * A node takes, renews or gives up ({@code leaseMillis} 0) the lease to run an exporter, and
 * records how far it has copied ({@code offset}; null keeps the recorded one) and its last error
 * ({@code trace}, null when the last batch went through). Applied only for the exporter's current
 * {@code generation}, while it runs, and when the lease is free, expired (by the record's own
 * time) or the node's own: as id blocks are granted, the journal's order decides between nodes.
 */
public record ExporterProgress(String name, String node, int generation, long leaseMillis, Offset offset, String trace)
        implements Command {

    @Override
    public CommandType type() {
        return CommandType.EXPORTER_PROGRESS;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
