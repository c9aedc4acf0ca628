package io.quire.node.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class QuireMetricsTest {

    @Test
    void unknownMethodsAndOddStatusesFoldIntoOneTag() {
        QuireMetrics m = new QuireMetrics();
        for (int i = 0; i < 500; i++) {
            m.httpRequest("FROB" + i, "unmatched", 404, 1_000);
            m.httpRequest("GET", "unmatched", 1000 + i, 1_000);
        }
        String scrape = m.scrape();
        long series = scrape.lines().filter(l -> l.startsWith("quire_http_requests_seconds_count")).count();
        assertEquals(2, series, scrape);
        assertFalse(scrape.contains("FROB"));
    }
}
