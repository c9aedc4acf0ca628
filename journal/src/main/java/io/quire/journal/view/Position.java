package io.quire.journal.view;

import io.quire.journal.model.Offset;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * How far the view has applied the journal, and the rolling digest of every (offset, outcome) so
 * far. Two replicas at the same offset and digest version must have the same digest.
 *
 * <p>The digest version says what the chain covers. Version 1 (views started before 2026-12)
 * covers each outcome's stored JSON, messages included, so rewording a message changed it;
 * version 2 covers the outcome without free text (error codes, ids, versions, levels), so an
 * upgrade that rewords a message leaves it alone. A view keeps the version its chain started
 * with; a rebuild starts at the current one.
 */
public record Position(Offset offset, byte[] digest, int digestVersion) {

    public static final int CURRENT_DIGEST_VERSION = 2;

    public static final Position GENESIS = new Position(Offset.NONE, new byte[32], CURRENT_DIGEST_VERSION);

    public String digestHex() {
        return HexFormat.of().formatHex(digest);
    }

    /** Version 1 positions are offset + digest; later ones add the version byte at the end. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(8 + digest.length + (digestVersion == 1 ? 0 : 1)).putLong(offset.value()).put(digest);
        if (digestVersion != 1) {
            b.put((byte) digestVersion);
        }
        return b.array();
    }

    public static Position decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        Offset offset = Offset.of(buf.getLong());
        byte[] d = new byte[32];
        buf.get(d);
        int version = buf.hasRemaining() ? buf.get() : 1;
        return new Position(offset, d, version);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Position p && p.offset.equals(offset) && p.digestVersion == digestVersion
                && Arrays.equals(p.digest, digest);
    }

    @Override
    public int hashCode() {
        return (offset.hashCode() * 31 + Arrays.hashCode(digest)) * 31 + digestVersion;
    }

    @Override
    public String toString() {
        return "Position[offset=" + offset + ", digest=" + digestHex() + ", v" + digestVersion + "]";
    }
}
