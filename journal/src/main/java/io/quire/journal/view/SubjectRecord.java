package io.quire.journal.view;

import java.nio.ByteBuffer;

/**
 * What the view keeps per subject.
 *
 * @param latestVersion highest version number present (live or soft-deleted)
 * @param liveVersions versions not soft-deleted
 * @param totalVersions versions present, soft-deleted included
 * @param revision offset of the last command that changed the subject's versions; the
 *     precondition the edge's compatibility check carries
 */
public record SubjectRecord(int latestVersion, int liveVersions, int totalVersions, long revision) {

    /** The revision of a subject that does not exist. */
    public static final long ABSENT = -1;

    public boolean softDeleted() {
        return liveVersions == 0;
    }

    public byte[] encode() {
        return ByteBuffer.allocate(20).putInt(latestVersion).putInt(liveVersions).putInt(totalVersions)
                .putLong(revision).array();
    }

    static SubjectRecord decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new SubjectRecord(buf.getInt(), buf.getInt(), buf.getInt(), buf.getLong());
    }
}
