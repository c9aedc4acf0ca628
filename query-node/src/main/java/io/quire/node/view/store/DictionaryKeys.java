package io.quire.node.view.store;

import io.quire.journal.view.SearchIndex;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The terms whose dictionary key ({@code q kind reversed-term}, value constant, never deleted) a
 * store has filed since it opened: a key filed before is in the store or in a group written before
 * any later one, so putting it again changes nothing and is left out. Nearly every schema has the
 * common terms (its fields' names, the words of its docs), so this keeps the dictionary to about
 * one put per new term. A crash loses the memory with the groups it covers; past {@link #MAX}
 * terms it starts again (a key put twice is only a put too many).
 *
 * <p>One thread at a time: the applying thread under the group lock, or, while the store defers
 * the index after a replay, its filing thread ({@link SearchFiling}), which hands over under the
 * same lock.
 */
final class DictionaryKeys implements SearchIndex.NewTerms {

    static final int MAX = 1 << 19;

    @SuppressWarnings("unchecked")
    private final Set<String>[] terms = new Set[256];
    private int size;

    @Override
    public boolean first(byte kind, String key) {
        if (size >= MAX) {
            Arrays.fill(terms, null);
            size = 0;
        }
        Set<String> t = terms[kind & 0xff];
        if (t == null) {
            t = new HashSet<>();
            terms[kind & 0xff] = t;
        }
        if (!t.add(key)) {
            return false;
        }
        size++;
        return true;
    }
}
