package io.quire.journal.view;

import io.quire.journal.model.Offset;
import io.quire.journal.model.Version;
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
public record SubjectRecord(Version latestVersion, int liveVersions, int totalVersions, Offset revision) {

    /** The revision of a subject that does not exist. */
    public static final Offset ABSENT = Offset.NONE;

    /** What a subject is before its first version. */
    public static final SubjectRecord EMPTY = new SubjectRecord(Version.NONE, 0, 0, ABSENT);

    public boolean softDeleted() {
        return liveVersions == 0;
    }

    public byte[] encode() {
        return ByteBuffer.allocate(20).putInt(latestVersion.number()).putInt(liveVersions).putInt(totalVersions)
                .putLong(revision.value()).array();
    }

    static SubjectRecord decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new SubjectRecord(Version.of(buf.getInt()), buf.getInt(), buf.getInt(), Offset.of(buf.getLong()));
    }
}
