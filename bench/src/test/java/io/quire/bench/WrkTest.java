package io.quire.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** wrk's report read into a result: what wrk 4.1 prints with --latency and a Lua done() line. */
class WrkTest {

    static final String REPORT = """
            Running 30s test @ http://127.0.0.1:41231
              2 threads and 200 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency    13.52ms    9.87ms 212.40ms   91.02%
                Req/Sec     7.61k     1.02k    9.80k    71.33%
              Latency Distribution
                 50%   11.02ms
                 75%   15.31ms
                 90%   21.77ms
                 99%    1.05s
              454321 requests in 30.02s, 61.23MB read
              Socket errors: connect 0, read 0, write 0, timeout 12
              Non-2xx or 3xx responses: 21
            Requests/sec:  15134.00
            Transfer/sec:      2.04MB
            non-2xx or errors: 33
            """;

    @Test
    void readsRequestsPercentilesAndErrors() {
        Result r = Wrk.parse("quire-steady", "writes-new", 200, REPORT);
        assertEquals(454_300, r.ok());
        assertEquals(30.02, r.seconds(), 1e-9);
        assertEquals(11_020, r.p50());
        assertEquals(21_770, r.p90());
        assertEquals(1_050_000, r.p99());
        assertEquals(212_400, r.max());
        assertEquals(-1, r.p95());
        assertEquals(-1, r.p999());
        assertEquals(Map.of("non-2xx", 21L, "socket-timeout", 12L), r.errors());
        assertEquals(200, r.users());
    }

    @Test
    void aReportWithoutTheLatencyDistributionIsRefused() {
        String withoutDistribution = REPORT.replaceAll("(?s)  Latency Distribution.*?99%\\s+\\S+\\n", "");
        assertThrows(IllegalArgumentException.class, () -> Wrk.parse("t", "s", 1, withoutDistribution));
        assertThrows(IllegalArgumentException.class, () -> Wrk.parse("t", "s", 1, "wrk: connection refused"));
    }

    @Test
    void microsecondLatenciesAndNoErrors() {
        String fast = REPORT.replace("11.02ms", "812.00us").replace("  Non-2xx or 3xx responses: 21\n", "")
                .replace("timeout 12", "timeout 0");
        Result r = Wrk.parse("t", "s", 200, fast);
        assertEquals(812, r.p50());
        assertEquals(Map.of(), r.errors());
        assertEquals(454_321, r.ok());
    }
}
