package io.quire.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** CPU time from /proc, as the steady-state stage reads it for its nodes. */
class ProcessesTest {

    @Test
    void aProcessesCpuGrowsByWhatItSpent() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux /proc");
        long pid = ProcessHandle.current().pid();
        double before = Processes.cpuSeconds(pid);
        double threadsBefore = Processes.cpuSeconds(pid, "main", "Test worker", "surefire");
        // Spin until this thread has used 0.3 s of CPU, however busy the machine is.
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + 300_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        double spent = Processes.cpuSeconds(pid) - before;
        assertTrue(spent >= 0.28, "spent " + spent + " s (" + x + ")");
        assertTrue(Processes.cpuSeconds(pid, Processes.COMPILER_THREADS) >= 0);
        assertTrue(Processes.cpuSeconds(pid, "no thread has this name") == 0);
        assertTrue(Processes.cpuSeconds(pid, "main", "Test worker", "surefire") >= threadsBefore);
        assertEquals(-1, Processes.cpuSeconds(Long.MAX_VALUE));
    }

    @Test
    void aStatLineIsReadPastANameWithSpacesAndBrackets(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "4242 (C2 Compiler) (x)) S 1 4242 4242 0 -1 4194368 10 0 0 0 731 52 0 0 20 0 1 0\n");
        assertEquals(783, Processes.ticks(stat));
    }
}
