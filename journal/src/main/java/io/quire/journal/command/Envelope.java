package io.quire.journal.command;

import java.util.Objects;

/**
 * What one journal record holds: the command plus who sent it, from where and when. The
 * timestamp is the sending node's clock; the applier copies it, it never reads a clock itself.
 *
 * @param version envelope version, {@link #CURRENT_VERSION} for records written now
 */
public record Envelope(int version, String commandId, String nodeId, String principal, long timestamp,
                       Command command) {

    public static final int CURRENT_VERSION = 1;

    public Envelope {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(command, "command");
        principal = principal == null ? "anonymous" : principal;
    }

    public static Envelope of(String commandId, String nodeId, String principal, long timestamp, Command command) {
        return new Envelope(CURRENT_VERSION, commandId, nodeId, principal, timestamp, command);
    }
}
