package io.quire.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What machine a run was on, for the report. */
final class Machine {

    private Machine() {
    }

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu", firstLine("/proc/cpuinfo", "model name"));
        m.put("memory", firstLine("/proc/meminfo", "MemTotal"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        String pinned = System.getenv().getOrDefault("QUIRE_BENCH_SERVER_CPUS", "");
        m.put("note", pinned.isEmpty() ? "load generator, brokers, nodes and proxies share these cores"
                : "servers pinned to cores " + pinned + ", the load generator to the others");
        return m;
    }

    private static String firstLine(String file, String prefix) {
        try {
            for (String line : Files.readAllLines(Path.of(file))) {
                if (line.startsWith(prefix)) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException e) {
            return "unknown";
        }
        return "unknown";
    }
}
