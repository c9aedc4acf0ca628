package io.quire.journal.view;

import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;

/**
 * One version of a subject: which schema id it has, whether it is soft-deleted, and when it was
 * registered ({@code registeredAt}, epoch millis from the journal record; 0 for versions a view
 * stored before it kept the time).
 */
public record VersionRecord(Version version, SchemaId schemaId, boolean deleted, long registeredAt) {

    public VersionRecord(Version version, SchemaId schemaId, boolean deleted) {
        this(version, schemaId, deleted, 0);
    }

    /** The same version, soft-deleted. */
    public VersionRecord softDeleted() {
        return new VersionRecord(version, schemaId, true, registeredAt);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(17).putLong(schemaId.value()).put((byte) (deleted ? 1 : 0)).putLong(registeredAt)
                .array();
    }

    static VersionRecord decode(Version version, byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        SchemaId id = SchemaId.of(buf.getLong());
        boolean deleted = buf.get() == 1;
        return new VersionRecord(version, id, deleted, buf.remaining() >= 8 ? buf.getLong() : 0);
    }
}
