package io.quire.node;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class NativeTrimTest {

    @Test
    void onLinuxTheJvmsTrimCommandIsFoundAndRuns() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux"));
        NativeTrim trim = NativeTrim.ifUseful();
        assertNotNull(trim, "Java 17.0.9+ on Linux has System.trim_native_heap and this JVM does not trim by itself");
        String said = trim.trim();
        assertTrue(said.contains("RSS"), said);
    }
}
