package io.quire.journal.view;

import java.nio.ByteBuffer;

/** One version of a subject: which schema id it has and whether it is soft-deleted. */
public record VersionRecord(int version, long schemaId, boolean deleted) {

    public byte[] encode() {
        return ByteBuffer.allocate(9).putLong(schemaId).put((byte) (deleted ? 1 : 0)).array();
    }

    static VersionRecord decode(int version, byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new VersionRecord(version, buf.getLong(), buf.get() == 1);
    }
}
