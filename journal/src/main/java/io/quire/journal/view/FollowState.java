package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Whether this registry follows another registry's log, which one, and the offset of the last
 * source record dealt with (-1: none yet). Kept under {@link Keys#FOLLOW}.
 */
public record FollowState(String source, boolean following, long lastOffset, int lastPart) {

    /** Every part of a record: what a skipped record is marked with. */
    public static final int WHOLE_RECORD = Integer.MAX_VALUE;

    public byte[] encode() {
        byte[] name = source.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + 8 + 4 + name.length).put((byte) (following ? 1 : 0)).putLong(lastOffset)
                .putInt(lastPart).put(name).array();
    }

    public static FollowState decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        boolean following = buf.get() == 1;
        long last = buf.getLong();
        int part = buf.getInt();
        byte[] name = new byte[buf.remaining()];
        buf.get(name);
        return new FollowState(new String(name, StandardCharsets.UTF_8), following, last, part);
    }
}
