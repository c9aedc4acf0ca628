package io.quire.journal.command;

import io.quire.journal.model.Subject;

/** A node asks for the next block of ids; the applier grants blocks in journal order. */
public record LeaseIdBlock(String node, String requestId, int size) implements Command {

    @Override
    public Subject subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.LEASE_ID_BLOCK;
    }
}
