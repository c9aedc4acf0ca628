package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * How far the view has applied the journal, and the rolling digest of every (offset, outcome) so
 * far. Two replicas at the same offset must have the same digest.
 */
public record Position(long offset, byte[] digest) {

    public static final Position GENESIS = new Position(-1, new byte[32]);

    public String digestHex() {
        return HexFormat.of().formatHex(digest);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(8 + digest.length).putLong(offset).put(digest).array();
    }

    public static Position decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        long offset = buf.getLong();
        byte[] d = new byte[buf.remaining()];
        buf.get(d);
        return new Position(offset, d);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Position p && p.offset == offset && Arrays.equals(p.digest, digest);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(offset) * 31 + Arrays.hashCode(digest);
    }

    @Override
    public String toString() {
        return "Position[offset=" + offset + ", digest=" + digestHex() + "]";
    }
}
