package io.quire.node.view.store;

import java.util.Arrays;

/**
 * Puts a group's keys of one kind in unsigned byte order for the view writer. Each key is compared
 * by its first eight bytes as one unsigned number and by all of its bytes only where those are
 * equal: the content kinds (a fingerprint, a content hash, a GUID) arrive in random order and
 * nearly always differ within eight bytes.
 *
 * <p>The sort moves {@code int} positions over primitive arrays with code of its own: a sort of
 * objects through {@code Arrays.sort} is shared with the rest of the process, and the JIT
 * recompiled its merges a dozen times over during a replay's first seconds as other callers
 * brought other element types (docs/adr/0016-a-smaller-view-and-deferred-compactions.md, Later).
 */
final class KeyOrder {

    /** Runs this short are put in order by insertion. */
    private static final int SHORT_RUN = 24;

    private KeyOrder() {
    }

    /** The key's first eight bytes as a big-endian number, zeros past a shorter key's end. */
    static long head(byte[] key) {
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (i < key.length ? key[i] & 0xff : 0);
        }
        return h;
    }

    /** The positions {@code 0 .. keys.length - 1}, ordered by their keys (distinct keys). */
    static int[] order(byte[][] keys) {
        int n = keys.length;
        long[] heads = new long[n];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            heads[i] = head(keys[i]);
            order[i] = i;
        }
        if (n > 1) {
            sort(order, new int[n], 0, n, heads, keys);
        }
        return order;
    }

    /** Merge sort of {@code a[from, to)}, {@code tmp} as scratch of the same length. */
    private static void sort(int[] a, int[] tmp, int from, int to, long[] heads, byte[][] keys) {
        if (to - from <= SHORT_RUN) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], x, heads, keys) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, tmp, from, mid, heads, keys);
        sort(a, tmp, mid, to, heads, keys);
        if (compare(a[mid - 1], a[mid], heads, keys) <= 0) {
            return; // already in order, as offsets and counters arrive
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && compare(tmp[i], tmp[j], heads, keys) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    private static int compare(int x, int y, long[] heads, byte[][] keys) {
        int c = Long.compareUnsigned(heads[x], heads[y]);
        return c != 0 ? c : Arrays.compareUnsigned(keys[x], keys[y]);
    }
}
