package io.quire.journal.view;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Which region is the primary and since which epoch (kept under {@link Keys#REGION}; absent: no
 * promotion ever happened, epoch 0, and whichever region writes the journal is the primary).
 */
public record RegionState(String primary, int epoch) {

    public static final RegionState NONE = new RegionState(null, 0);

    public static RegionState of(RegistryView view) {
        byte[] b = view.kv().get(Keys.REGION);
        return b == null ? NONE : decode(b);
    }

    public byte[] encode() {
        byte[] name = primary.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + name.length).putInt(epoch).put(name).array();
    }

    static RegionState decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        int epoch = buf.getInt();
        byte[] name = new byte[buf.remaining()];
        buf.get(name);
        return new RegionState(new String(name, StandardCharsets.UTF_8), epoch);
    }
}
