package io.quire.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuiteOptionsTest {

    @Test
    void nodeJvmOptionsAreSplitOnWhitespaceAndNoneByDefault() {
        assertEquals(List.of(), Suite.Options.parse(new String[0]).nodeJvm());
        assertEquals(List.of("-Xms2g", "-XX:+AlwaysPreTouch"),
                Suite.Options.parse(new String[] {"--node-jvm", "  -Xms2g   -XX:+AlwaysPreTouch "}).nodeJvm());
        assertEquals("3g", Suite.Options.parse(new String[] {"--node-heap", "3g"}).nodeHeap());
    }

    @Test
    void theSettleLimitOfTheSteadyStageIsAnOption() {
        Suite.Options defaults = Suite.Options.parse(new String[0]);
        assertEquals(List.of("trivial", "quire", "latency", "postgres"), defaults.stages());
        assertEquals(java.time.Duration.ofSeconds(300), defaults.settleLimit());
        assertEquals(java.time.Duration.ofSeconds(60),
                Suite.Options.parse(new String[] {"--settle-seconds", "60"}).settleLimit());
    }
}
