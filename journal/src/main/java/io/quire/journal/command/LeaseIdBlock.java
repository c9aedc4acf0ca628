package io.quire.journal.command;

/** A node asks for the next block of ids; the applier grants blocks in journal order. */
public record LeaseIdBlock(String node, String requestId, int size) implements Command {

    @Override
    public String subject() {
        return null;
    }

    @Override
    public CommandType type() {
        return CommandType.LEASE_ID_BLOCK;
    }
}
