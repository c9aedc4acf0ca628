package io.quire.journal.command;

import io.quire.journal.model.Subject;
import java.util.List;

/**
 * Schema versions copied from a followed registry, from consecutive records of its log, as one
 * journal record: a follower catching up sends a run of plain new versions this way instead of a
 * record each. The envelope's source position is the last copied record's, chained after the
 * position before the first, so the run as a whole keeps the follower's order. The applier imports
 * each by the rules of {@link ImportSchema}, over the view as those before it leave it, and writes
 * all of them or none: the first that cannot be imported refuses the whole record, naming its
 * source offset, and the follower then sends those records one at a time.
 *
 * @param schemas the imports, in the source's order
 */
public record ImportSchemas(List<Copied> schemas) implements Command {

    /** The most imports one record holds. */
    public static final int MAX_SCHEMAS = 1_000;

    public ImportSchemas {
        schemas = schemas == null ? List.of() : List.copyOf(schemas);
    }

    /** One import and the offset of the source record it copies. */
    public record Copied(long sourceOffset, ImportSchema schema) {
    }

    @Override
    public CommandType type() {
        return CommandType.IMPORT_SCHEMAS;
    }

    /** A run names many subjects: it has no one subject (the audit trail has an entry per import). */
    @Override
    public Subject subject() {
        return null;
    }
}
