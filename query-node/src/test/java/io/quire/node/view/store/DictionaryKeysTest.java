package io.quire.node.view.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DictionaryKeysTest {

    /**
     * A million terms as a registry files them: a few thousand common ones (field names, doc
     * words) among unique ones (subject names, generated record names), in two kinds. A term is
     * left out only after it was put; common terms are put about twice each; unique terms never
     * take a slot.
     */
    @Test
    void leavesOutOnlyWhatItPutAndKeepsTheCommonTermsNotTheUniqueOnes() {
        DictionaryKeys dictionary = new DictionaryKeys();
        Random r = new Random(11);
        Set<String> put = new HashSet<>();
        int commonPuts = 0;
        int commonCalls = 0;
        int uniqueHeld = 0;
        for (int i = 0; i < 1_000_000; i++) {
            byte kind = (byte) (r.nextBoolean() ? 'f' : 's');
            boolean common = r.nextInt(3) > 0;
            String term = common ? "field" + r.nextInt(5_000) : "W_run_" + i;
            boolean first = dictionary.first(kind, term);
            String tagged = (char) kind + term;
            if (first) {
                put.add(tagged);
            } else {
                assertTrue(put.contains(tagged), () -> "left out a term never put: " + tagged);
            }
            if (common) {
                commonCalls++;
                commonPuts += first ? 1 : 0;
            } else {
                uniqueHeld += dictionary.holds(kind, term) ? 1 : 0;
            }
        }
        assertEquals(0, uniqueHeld, "a term seen once holds no slot");
        // 10,000 common (kind, term) pairs, each put on its first two sightings, and again only (23,689 in all)
        // when a colliding common term took its slot
        assertTrue(commonPuts < 30_000, commonPuts + " puts for " + commonCalls + " calls of 10,000 common terms");
        assertTrue(commonPuts >= 10_000, "each common term put at least once: " + commonPuts);
    }

    @Test
    void theSameTextInAnotherKindIsAnotherTerm() {
        DictionaryKeys dictionary = new DictionaryKeys();
        assertTrue(dictionary.first((byte) 'f', "id"));
        assertTrue(dictionary.first((byte) 'f', "id"));
        assertFalse(dictionary.first((byte) 'f', "id"));
        assertTrue(dictionary.first((byte) 'd', "id"), "not put in kind d yet");
        assertFalse(dictionary.first((byte) 'f', "id"));
    }
}
