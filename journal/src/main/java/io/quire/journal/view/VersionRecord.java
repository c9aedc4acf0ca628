package io.quire.journal.view;

import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;

/**
 * One version of a subject: which schema id it has, whether it is soft-deleted, when it was
 * registered ({@code registeredAt}, epoch millis from the journal record; 0 for versions a view
 * stored before it kept the time), its global id (unique per version across the registry, given
 * in journal order, as Apicurio's v3 API names versions; see {@link Keys#NEXT_GLOBAL_ID}) and
 * whether it was imported as deprecated.
 */
public record VersionRecord(Version version, SchemaId schemaId, boolean deleted, long registeredAt, long globalId,
                            boolean deprecated) {

    public VersionRecord(Version version, SchemaId schemaId, boolean deleted) {
        this(version, schemaId, deleted, 0, 0, false);
    }

    /** The same version, soft-deleted. */
    public VersionRecord softDeleted() {
        return new VersionRecord(version, schemaId, true, registeredAt, globalId, deprecated);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(26).putLong(schemaId.value()).put((byte) (deleted ? 1 : 0)).putLong(registeredAt)
                .putLong(globalId).put((byte) (deprecated ? 1 : 0)).array();
    }

    static VersionRecord decode(Version version, byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        SchemaId id = SchemaId.of(buf.getLong());
        boolean deleted = buf.get() == 1;
        long at = buf.remaining() >= 8 ? buf.getLong() : 0;
        long global = buf.remaining() >= 8 ? buf.getLong() : 0;
        return new VersionRecord(version, id, deleted, at, global, buf.hasRemaining() && buf.get() == 1);
    }
}
