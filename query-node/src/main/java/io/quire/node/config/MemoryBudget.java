package io.quire.node.config;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The memory a node is given and how it is shared (docs/operations.md#memory): the heap, the view's
 * RocksDB ({@code --view-memory-mib}), the JVM's own (metaspace, code, threads, the collector's
 * tables), native memory no budget caps (the C allocator's freed-but-kept pages, RocksDB's work
 * buffers beyond its cache) and, when the node runs relaunched, the small JVM that started it.
 * The budget is {@code --memory-mib}, else the container's limit (cgroup v2 or v1), else 1024 MiB.
 * A node started without a heap limit of its own starts again with {@code -Xmx} set from it
 * ({@code Main}); one started with {@code -Xmx} keeps it, and the budget is only reported.
 *
 * @param source where the budget came from: "flag", "container" or "default"
 * @param launcherMib the share of the JVM that relaunched the node (0 when it was not relaunched)
 */
public record MemoryBudget(long budgetMib, String source, long heapMib, long viewMib, long jvmMib, long nativeMib,
                           long launcherMib) {

    /**
     * What the JVM's own needs beside the heap and the view: metaspace, code, threads, the
     * collector's tables (225-249 MiB by Native Memory Tracking at size), and the libraries and
     * class archive mapped from files (~34 MiB resident; docs/capacity-planning.md).
     */
    static final long JVM_MIB = 288;
    /**
     * Native memory beside the JVM's and the view's cache: what the C allocator keeps of RocksDB's
     * freed blocks between trims ({@code --native-trim-interval-ms}) and RocksDB's compaction and
     * flush buffers: 59-86 MiB after a replay and reads, up to 112 MiB under writes at size, with a
     * trim every 5 s (docs/capacity-planning.md).
     */
    static final long NATIVE_MIB = 96;
    /** The JVM that relaunched the node and waits for it: 54 MiB resident, a third of it shared with the node. */
    static final long LAUNCHER_MIB = 64;
    static final long MIN_HEAP_MIB = 256;
    public static final long DEFAULT_MIB = 1024;

    /**
     * The budget for a node with these settings, reading the container's limit from {@code
     * cgroupRoot}; {@code relaunched}: the node runs in a second JVM, whose launcher shares the budget.
     */
    public static MemoryBudget of(long flagMib, long viewMib, Path cgroupRoot, boolean relaunched) {
        long budget;
        String source;
        long container = containerLimitMib(cgroupRoot);
        if (flagMib > 0) {
            budget = flagMib;
            source = "flag";
        } else if (container > 0) {
            budget = container;
            source = "container";
        } else {
            budget = DEFAULT_MIB;
            source = "default";
        }
        long launcher = relaunched ? LAUNCHER_MIB : 0;
        long heap = Math.max(MIN_HEAP_MIB, budget - viewMib - JVM_MIB - NATIVE_MIB - launcher);
        return new MemoryBudget(budget, source, heap, viewMib, JVM_MIB, NATIVE_MIB, launcher);
    }

    /** The container's memory limit in MiB (cgroup v2, then v1), or 0 when there is none. */
    static long containerLimitMib(Path root) {
        for (Path p : List.of(root.resolve("memory.max"), root.resolve("memory/memory.limit_in_bytes"))) {
            try {
                String text = Files.readString(p).strip();
                if (text.equals("max")) {
                    return 0;
                }
                long bytes = Long.parseLong(text);
                if (bytes > 0 && bytes < (1L << 50)) { // v1 writes a huge number for "no limit"
                    return bytes >> 20;
                }
                return 0;
            } catch (IOException | NumberFormatException e) {
                // no such file: the next kind
            }
        }
        return 0;
    }

    /**
     * Whether this JVM was given its heap's size (a limit, a share of the machine, or an initial size
     * a budget's limit could contradict) by its command line or {@code JAVA_TOOL_OPTIONS}.
     */
    public static boolean heapGiven(List<String> jvmArguments) {
        for (String a : jvmArguments) {
            if (a.startsWith("-Xmx") || a.startsWith("-Xms") || a.startsWith("-XX:MaxHeapSize")
                    || a.startsWith("-XX:InitialHeapSize") || a.startsWith("-XX:MaxRAMPercentage")
                    || a.startsWith("-XX:MaxRAM=")) {
                return true;
            }
        }
        return false;
    }

    public static boolean heapGiven() {
        return heapGiven(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** One line for the log: the budget, its source, and its shares. */
    public String describe(long actualHeapMib) {
        return "memory budget " + budgetMib + " MiB (" + source + "): heap " + actualHeapMib + " MiB, view "
                + viewMib + " MiB, JVM ~" + jvmMib + " MiB, native ~" + nativeMib + " MiB"
                + (launcherMib > 0 ? ", launcher ~" + launcherMib + " MiB" : "");
    }
}
