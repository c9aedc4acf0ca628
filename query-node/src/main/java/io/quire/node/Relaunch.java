package io.quire.node;

import io.quire.node.config.MemoryBudget;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A node started without a heap limit ({@code java -jar quire.jar dev}) runs in a second JVM whose
 * heap comes from the memory budget ({@link MemoryBudget}): the JVM's default (a quarter of the
 * machine) let RSS grow to 2 GiB on a machine of 24. This JVM starts that one with the same
 * arguments and {@code -Xmx}, passes its output through, stops it on SIGTERM (a graceful stop),
 * and exits with its code. The node halts itself at once if this JVM disappears without stopping
 * it ({@code kill -9}), so that a killed node never leaves one behind.
 */
final class Relaunch {

    /** Set in the node's environment: it is the relaunched one, and watches this JVM. */
    static final String CHILD = "QUIRE_RELAUNCHED";

    private Relaunch() {
    }

    /** Whether this JVM is a node that another one started ({@link #run}), which shares its budget. */
    static boolean relaunched() {
        return System.getenv(CHILD) != null;
    }

    /** Whether this JVM should start the node in a second one with a heap from {@code budget}. */
    static boolean wanted() {
        return !relaunched() && !MemoryBudget.heapGiven() && System.getenv("QUIRE_NO_RELAUNCH") == null
                && ProcessHandle.current().info().command().isPresent();
    }

    /**
     * The budget from the flags and environment alone ({@code --memory-mib}, {@code
     * --view-memory-mib}, their {@code QUIRE_} variables), read without the whole configuration: a
     * value that is not a number is left to the node, which refuses it.
     */
    static MemoryBudget budget(String[] flags, Map<String, String> env) {
        long memory = number(flags, "--memory-mib", env.get("QUIRE_MEMORY_MIB"), 0);
        long view = number(flags, "--view-memory-mib", env.get("QUIRE_VIEW_MEMORY_MIB"), 256);
        return MemoryBudget.of(memory, view, Path.of("/sys/fs/cgroup"), true);
    }

    private static long number(String[] flags, String name, String fromEnv, long dflt) {
        String text = fromEnv;
        for (int i = 0; i < flags.length; i++) {
            if (flags[i].equals(name) && i + 1 < flags.length) {
                text = flags[i + 1];
            } else if (flags[i].startsWith(name + "=")) {
                text = flags[i].substring(name.length() + 1);
            }
        }
        try {
            return text == null || text.isBlank() ? dflt : Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /** Runs the node in a second JVM with the budget's heap; returns its exit code. */
    static int run(MemoryBudget budget, String[] args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.add("-Xmx" + budget.heapMib() + "m");
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        // no logger here: this JVM loads as little as it can, and stays small while the node runs
        System.err.println(budget.describe(budget.heapMib()) + "; starting the node with -Xmx" + budget.heapMib()
                + "m (set -Xmx or --memory-mib to choose)");
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put(CHILD, Long.toString(ProcessHandle.current().pid()));
        Process node = pb.start();
        // a full collection lets G1 give its committed heap back: this JVM only waits from here on
        System.gc();
        Thread stop = new Thread(() -> {
            if (node.isAlive()) {
                node.destroy(); // SIGTERM: the node's own graceful stop
                try {
                    node.waitFor(5, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "quire-relaunch-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        int code = node.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(stop);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it waited for the node already
        }
        return code;
    }

    /** In the relaunched node: halt at once when the JVM that started it is gone without stopping it. */
    static void watchParent() {
        String parent = System.getenv(CHILD);
        if (parent == null) {
            return;
        }
        Optional<ProcessHandle> handle;
        try {
            handle = ProcessHandle.of(Long.parseLong(parent));
        } catch (NumberFormatException e) {
            return;
        }
        if (handle.isEmpty()) {
            Runtime.getRuntime().halt(137);
        }
        handle.get().onExit().thenRun(() -> {
            System.err.println("the process that started this node (" + parent + ") is gone; halting");
            Runtime.getRuntime().halt(137);
        });
    }
}
