package io.quire.node.view.store;

import io.quire.journal.view.Changes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The search index's dictionary keys ({@code q kind reversed-term}, value constant, never deleted)
 * a store has taken since it opened: a key taken before is in the store or in a group written
 * before any later one, so putting it again changes nothing and is left out. Nearly every schema
 * has the common terms (its fields' names, the words of its docs), so this keeps the dictionary to
 * about one put per new term. A crash loses the memory with the groups it covers; past
 * {@link #MAX} keys it starts again (a key put twice is only a put too many).
 */
final class DictionaryKeys {

    static final int MAX = 1 << 19;
    private static final byte DICTIONARY = 'q';

    private final Set<ByteBuffer> taken = new HashSet<>();
    /** The same keys as terms by kind, for {@link #holds}: filled as keys are first taken. */
    @SuppressWarnings("unchecked")
    private final Set<String>[] terms = new Set[256];

    /**
     * Whether the dictionary key of this term was taken: the applier then builds none. The
     * applying thread alone calls this and {@link #unseen} (ApplyProcessor's reads answer it; the
     * edge's readers of the view say false, which is always right).
     */
    boolean holds(byte kind, String key) {
        Set<String> t = terms[kind & 0xff];
        return t != null && t.contains(key);
    }

    /** The entries other than dictionary keys taken before (the applying thread, under the group lock). */
    List<Changes.Entry> unseen(List<Changes.Entry> derived) {
        List<Changes.Entry> out = new ArrayList<>(derived.size());
        for (Changes.Entry e : derived) {
            byte[] key = e.key();
            if (key.length > 0 && key[0] == DICTIONARY) {
                if (taken.size() >= MAX) {
                    taken.clear();
                    Arrays.fill(terms, null);
                }
                if (!taken.add(ByteBuffer.wrap(key))) {
                    continue;
                }
                if (terms[key[1] & 0xff] == null) {
                    terms[key[1] & 0xff] = new HashSet<>();
                }
                terms[key[1] & 0xff].add(new StringBuilder(new String(key, 2, key.length - 2,
                        StandardCharsets.UTF_8)).reverse().toString());
            }
            out.add(e);
        }
        return out;
    }
}
