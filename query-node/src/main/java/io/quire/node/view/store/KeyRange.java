package io.quire.node.view.store;

import java.util.Arrays;

/** The bounds a scan of the store gives: an inclusive upper key and a prefix, either may be absent. */
final class KeyRange {

    private KeyRange() {
    }

    /** Whether {@code k} is at most {@code toInclusive} (null: no bound) and starts with {@code prefix} (null: any). */
    static boolean inRange(byte[] k, byte[] toInclusive, byte[] prefix) {
        if (toInclusive != null && Arrays.compareUnsigned(k, toInclusive) > 0) {
            return false;
        }
        return prefix == null || (k.length >= prefix.length
                && Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length));
    }
}
