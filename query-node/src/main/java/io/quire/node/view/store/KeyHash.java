package io.quire.node.view.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 64-bit hash of a view key, eight bytes a step: the view's keys share long prefixes (a
 * subject's name, a context) and run to 65 bytes, and {@code Arrays.hashCode} (one byte a step)
 * was a tenth of a replay's applying thread. Used by the pending layers' map and the filter of
 * absent keys.
 */
final class KeyHash {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private KeyHash() {
    }

    static long of(byte[] key) {
        long h = 0x9E3779B97F4A7C15L ^ key.length;
        int i = 0;
        for (; i + 8 <= key.length; i += 8) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(key, i) * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
        }
        for (; i < key.length; i++) {
            h = Long.rotateLeft(h ^ (key[i] & 0xffL) * 0xC2B2AE3D27D4EB4FL, 23) * 0x9E3779B97F4A7C15L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return h;
    }
}
