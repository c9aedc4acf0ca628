package io.quire.journal.command;

import io.quire.journal.model.Principal;
import java.util.Objects;

/**
 * What one journal record holds: the command plus who sent it, from where and when. The
 * timestamp is the sending node's clock; the applier copies it, it never reads a clock itself.
 *
 * @param version envelope version, {@link #CURRENT_VERSION} for records written now
 */
public record Envelope(int version, CommandId commandId, String nodeId, Principal principal, long timestamp,
                       Command command, Source source, int epoch) {

    public static final int CURRENT_VERSION = 1;

    /**
     * Where a command comes from when it copies a record of a followed registry's log: the source's
     * name, the record's offset there, and which of the record's commands this is (a record may
     * need two: a schema the source shows only as already deleted is imported, then deleted).
     * Null for every other command.
     */
    public record Source(String name, long offset, int part, Long prevOffset, Integer prevPart) {
        public Source {
            Objects.requireNonNull(name, "name");
        }

        public Source(String name, long offset, int part) {
            this(name, offset, part, null, null);
        }

        public Source(String name, long offset) {
            this(name, offset, 0);
        }

        /**
         * This step, to be applied only right after {@code (prevOffset, prevPart)}: a follower that
         * sends steps without waiting for each chains them, so that a step refused breaks the chain
         * and nothing after it is applied until the follower resends from there.
         */
        public Source after(long prevOffset, int prevPart) {
            return new Source(name, offset, part, prevOffset, prevPart);
        }

        public boolean chained() {
            return prevOffset != null && prevPart != null;
        }

        /** Whether this comes after the given position in the source. */
        public boolean isAfter(long otherOffset, int otherPart) {
            return offset > otherOffset || (offset == otherOffset && part > otherPart);
        }
    }

    public Envelope {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(command, "command");
        principal = principal == null ? Principal.ANONYMOUS : principal;
    }

    public Envelope(int version, CommandId commandId, String nodeId, Principal principal, long timestamp,
                    Command command) {
        this(version, commandId, nodeId, principal, timestamp, command, null, 0);
    }

    public Envelope(int version, CommandId commandId, String nodeId, Principal principal, long timestamp,
                    Command command, Source source) {
        this(version, commandId, nodeId, principal, timestamp, command, source, 0);
    }

    /** This envelope for a record copied from a followed registry. */
    public Envelope from(Source s) {
        return new Envelope(version, commandId, nodeId, principal, timestamp, command, s, epoch);
    }

    /**
     * This envelope stamped with the region epoch its node saw (a later field, written only when
     * above 0: a journal that was never promoted keeps its records' form).
     */
    public Envelope atEpoch(int e) {
        return new Envelope(version, commandId, nodeId, principal, timestamp, command, source, e);
    }

    public static Envelope of(CommandId commandId, String nodeId, Principal principal, long timestamp,
                              Command command) {
        return new Envelope(CURRENT_VERSION, commandId, nodeId, principal, timestamp, command);
    }
}
