package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Resume points answer the nearest point of the same list at the same write count, within their byte bound. */
class ResumePointsTest {

    private static ResumePoints.Shape shape(String prefix) {
        return new ResumePoints.Shape("subjects", prefix, "", List.of());
    }

    @Test
    void theNearestPointAtOrBeforeTheOffsetOfTheSameCount() {
        ResumePoints<String> r = new ResumePoints<>(1 << 20, String::length);
        r.remember(shape(""), 7, 1000, "k1000");
        r.remember(shape(""), 7, 2000, "k2000");
        assertEquals(new ResumePoints.Point<>(1000, "k1000"), r.floor(shape(""), 7, 1999));
        assertEquals(new ResumePoints.Point<>(2000, "k2000"), r.floor(shape(""), 7, 2000));
        assertNull(r.floor(shape(""), 7, 999));
        assertNull(r.floor(shape(""), 8, 1500), "the list was written since");
        assertNull(r.floor(shape("a"), 7, 1500), "another list");
        r.remember(shape(""), 6, 3000, "stale");
        assertEquals("k2000", r.floor(shape(""), 7, 3000).at(), "an older count's point is ignored");
        r.remember(shape(""), 9, 500, "k500");
        assertNull(r.floor(shape(""), 7, 1500), "a newer count drops the older points");
        assertEquals("k500", r.floor(shape(""), 9, 600).at());
        r.remember(shape(""), -1, 100, "uncounted");
        assertNull(r.floor(shape(""), -1, 100), "a store that does not count keeps no points");
    }

    @Test
    void theBytesStayUnderTheBoundDroppingTheListUsedLeastRecently() {
        ResumePoints<String> r = new ResumePoints<>(9_000, String::length); // 100 bytes a point
        for (int i = 0; i < 50; i++) {
            r.remember(shape("a"), 1, i * 1000, "x".repeat(52));
        }
        for (int i = 0; i < 50; i++) {
            r.remember(shape("b"), 1, i * 1000, "x".repeat(52));
        }
        assertTrue(r.bytes() <= 9_000, "bytes " + r.bytes());
        assertEquals(1, r.lists(), "the older list went first");
        assertNull(r.floor(shape("a"), 1, 0));
        for (int i = 0; i < 200; i++) {
            r.remember(shape("b"), 1, i * 1000, "x".repeat(52));
        }
        assertTrue(r.bytes() <= 9_000, "one list alone keeps under the bound: " + r.bytes());
        assertEquals(0, r.floor(shape("b"), 1, 5).offset(), "its first points stay");
    }
}
