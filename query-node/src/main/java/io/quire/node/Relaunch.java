package io.quire.node;

import io.quire.node.config.MemoryBudget;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node started without a heap limit ({@code java -jar quire.jar dev}) runs in a second JVM whose
 * heap comes from the memory budget ({@link MemoryBudget}): the JVM's default (a quarter of the
 * machine) let RSS grow to 2 GiB on a machine of 24. This JVM starts that one with the same
 * arguments and {@code -Xmx}, passes its output through, stops it on SIGTERM (a graceful stop),
 * and exits with its code. The node halts itself at once if this JVM disappears without stopping
 * it ({@code kill -9}), so that a killed node never leaves one behind.
 */
final class Relaunch {

    private static final Logger LOG = LoggerFactory.getLogger(Relaunch.class);
    /** Set in the node's environment: it is the relaunched one, and watches this JVM. */
    static final String CHILD = "QUIRE_RELAUNCHED";

    private Relaunch() {
    }

    /** Whether this JVM should start the node in a second one with a heap from {@code budget}. */
    static boolean wanted() {
        return System.getenv(CHILD) == null && !MemoryBudget.heapGiven() && System.getenv("QUIRE_NO_RELAUNCH") == null
                && ProcessHandle.current().info().command().isPresent();
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
        LOG.info("{}; starting the node with -Xmx{}m (set -Xmx or --memory-mib to choose)",
                budget.describe(budget.heapMib()), budget.heapMib());
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put(CHILD, Long.toString(ProcessHandle.current().pid()));
        Process node = pb.start();
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
            LOG.error("the process that started this node ({}) is gone; halting", parent);
            Runtime.getRuntime().halt(137);
        });
    }
}
