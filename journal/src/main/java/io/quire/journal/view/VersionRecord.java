package io.quire.journal.view;

import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;

/** One version of a subject: which schema id it has and whether it is soft-deleted. */
public record VersionRecord(Version version, SchemaId schemaId, boolean deleted) {

    /** The same version, soft-deleted. */
    public VersionRecord softDeleted() {
        return new VersionRecord(version, schemaId, true);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(9).putLong(schemaId.value()).put((byte) (deleted ? 1 : 0)).array();
    }

    static VersionRecord decode(Version version, byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new VersionRecord(version, SchemaId.of(buf.getLong()), buf.get() == 1);
    }
}
