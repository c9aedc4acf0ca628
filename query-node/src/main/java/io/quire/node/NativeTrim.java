package io.quire.node;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the C allocator to give freed memory back to the system, through the JVM's own
 * {@code System.trim_native_heap} diagnostic command (glibc's {@code malloc_trim}).
 *
 * <p>Why: RocksDB allocates and frees its cached blocks with {@code malloc} from many threads.
 * glibc keeps what is freed inside its per-thread arenas, so a node's resident memory grows past
 * the view's budget without any of it being in use: after a replay of 1.5 M schemas and reads
 * over all of them, 204-217 MiB of native memory that neither the JVM nor RocksDB accounts for;
 * 76-86 MiB with a trim every 5 s (alternated; docs/capacity-planning.md).
 */
final class NativeTrim implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(NativeTrim.class);
    private static final String OPERATION = "systemTrimNativeHeap";

    private final MBeanServer server;
    private final ObjectName command;

    private NativeTrim(MBeanServer server, ObjectName command) {
        this.server = server;
        this.command = command;
    }

    /**
     * A trim to run every so often, or null where there is nothing to do: the JVM trims by itself
     * ({@code -XX:TrimNativeHeapInterval}), or it has no such command (not HotSpot, not Linux, a
     * JDK before 17.0.9).
     */
    static NativeTrim ifUseful() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(
                    HotSpotDiagnosticMXBean.class);
            if (hotspot != null && !"0".equals(vmOption(hotspot, "TrimNativeHeapInterval"))) {
                return null;
            }
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
                return null;
            }
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName command = new ObjectName("com.sun.management:type=DiagnosticCommand");
            for (MBeanOperationInfo op : server.getMBeanInfo(command).getOperations()) {
                if (op.getName().equals(OPERATION)) {
                    return new NativeTrim(server, command);
                }
            }
        } catch (Exception | LinkageError e) {
            LOG.debug("no native heap trim: {}", e.toString());
        }
        return null;
    }

    private static String vmOption(HotSpotDiagnosticMXBean hotspot, String name) {
        try {
            return hotspot.getVMOption(name).getValue();
        } catch (IllegalArgumentException e) {
            return "0"; // no such option in this JVM
        }
    }

    /** Trims once; returns the JVM's account of it ({@code RSS+Swap: a->b (-c)}). */
    String trim() throws Exception {
        return String.valueOf(server.invoke(command, OPERATION, new Object[] {null},
                new String[] {String[].class.getName()})).trim();
    }

    @Override
    public void run() {
        try {
            String said = trim();
            LOG.debug("{}", said);
        } catch (Exception e) {
            LOG.debug("native heap trim failed: {}", e.toString());
        }
    }
}
