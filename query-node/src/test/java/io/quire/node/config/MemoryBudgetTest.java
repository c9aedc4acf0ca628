package io.quire.node.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the budget comes from and how it is shared. */
class MemoryBudgetTest {

    @Test
    void theFlagThenTheContainersLimitThenTheDefault(@TempDir Path cgroup) throws Exception {
        MemoryBudget none = MemoryBudget.of(0, 256, cgroup, true);
        assertEquals(new MemoryBudget(1024, "default", 320, 256, 288, 96, 64), none,
                "1 GiB: heap 320, view 256, JVM 288, native 96, launcher 64");
        assertEquals(384, MemoryBudget.of(0, 256, cgroup, false).heapMib(), "no launcher: its share goes to the heap");
        Files.writeString(cgroup.resolve("memory.max"), "2147483648\n");
        assertEquals(new MemoryBudget(2048, "container", 1344, 256, 288, 96, 64), MemoryBudget.of(0, 256, cgroup, true));
        assertEquals("flag", MemoryBudget.of(768, 256, cgroup, true).source());
        assertEquals(256, MemoryBudget.of(512, 256, cgroup, true).heapMib(), "never under 256 MiB of heap");
        Files.writeString(cgroup.resolve("memory.max"), "max\n");
        assertEquals("default", MemoryBudget.of(0, 256, cgroup, true).source(), "cgroup v2 without a limit");
    }

    @Test
    void cgroupV1AndItsNoLimitNumber(@TempDir Path cgroup) throws Exception {
        Files.createDirectories(cgroup.resolve("memory"));
        Files.writeString(cgroup.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");
        assertEquals("default", MemoryBudget.of(0, 256, cgroup, true).source());
        Files.writeString(cgroup.resolve("memory/memory.limit_in_bytes"), "1610612736\n");
        assertEquals(1536, MemoryBudget.of(0, 256, cgroup, true).budgetMib());
    }

    @Test
    void aHeapGivenOnTheCommandLine() {
        assertTrue(MemoryBudget.heapGiven(List.of("-Xmx512m")));
        assertTrue(MemoryBudget.heapGiven(List.of("-Dx=1", "-XX:MaxRAMPercentage=50")));
        assertTrue(MemoryBudget.heapGiven(List.of("-Xms1g")), "an initial size a smaller -Xmx would contradict");
        assertFalse(MemoryBudget.heapGiven(List.of("-XX:+AlwaysPreTouch", "-Djava.io.tmpdir=/tmp")));
    }
}
