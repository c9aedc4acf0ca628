package io.quire.node.view.store;

import io.quire.journal.view.SearchIndex;

/**
 * Terms whose dictionary key ({@code q kind reversed-term}, value constant, never deleted) this
 * store filed lately: a key filed before is in the store or in a group written before any later
 * one, so putting it again changes nothing and is left out. Nearly every schema has the common
 * terms (its fields' names, the words of its docs), so this keeps the dictionary to a few puts per
 * term (two, more for a term whose bucket other common terms share). Putting a key twice is only a
 * put too many, so the memory may forget.
 *
 * <p>It is a table of {@value #BUCKETS} buckets of two terms each, one bucket per term's hash, of a
 * fixed size whatever the registry holds. A bucket first remembers only a term's hash; the term
 * itself takes a place in the bucket (the one not used last) when it comes again while its hash is
 * there, and is put that second time too. A term is left out only when its bucket holds it, so only
 * after it was put. A registry's unique terms (subject names, the names of generated records) come
 * once each and never take a place: they leave no string on the heap (docs/adr/0019, Later: a set
 * of every term had held about 60 MB at size).
 *
 * <p>One thread at a time: the applying thread under the group lock, or, while the store defers
 * the index after a replay, its filing thread ({@link SearchFiling}), which hands over under the
 * same lock.
 */
final class DictionaryKeys implements SearchIndex.NewTerms {

    static final int BUCKETS = 1 << 16;

    private final long[] seen = new long[BUCKETS];
    private final String[] keys = new String[2 * BUCKETS];
    private final byte[] kinds = new byte[2 * BUCKETS];
    /** The place of each bucket used last (0 or 1). */
    private final byte[] last = new byte[BUCKETS];

    @Override
    public boolean first(byte kind, String key) {
        long hash = hash(kind, key);
        int bucket = bucket(hash);
        for (int way = 0; way < 2; way++) {
            if (matches(2 * bucket + way, kind, key)) {
                last[bucket] = (byte) way;
                return false;
            }
        }
        if (seen[bucket] == hash) {
            int way = keys[2 * bucket] == null ? 0 : keys[2 * bucket + 1] == null ? 1 : 1 - last[bucket];
            keys[2 * bucket + way] = key;
            kinds[2 * bucket + way] = kind;
            last[bucket] = (byte) way;
        } else {
            seen[bucket] = hash;
        }
        return true;
    }

    /** Whether {@code key} holds a place in its bucket (for tests). */
    boolean holds(byte kind, String key) {
        int bucket = bucket(hash(kind, key));
        return matches(2 * bucket, kind, key) || matches(2 * bucket + 1, kind, key);
    }

    private boolean matches(int place, byte kind, String key) {
        String held = keys[place];
        return held != null && kinds[place] == kind && held.equals(key);
    }

    private static int bucket(long hash) {
        return (int) (hash >>> 48) & (BUCKETS - 1);
    }

    private static long hash(byte kind, String key) {
        long h = (key.hashCode() * 0x9E3779B97F4A7C15L) ^ (kind * 0xC2B2AE3D27D4EB4FL);
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 32);
    }
}
