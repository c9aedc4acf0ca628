package io.quire.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starting, watching and measuring the processes under test. */
final class Processes {

    private Processes() {
    }

    /**
     * Cores for the processes under test, when the machine has enough to split: {@code bench/run.sh}
     * pins the load generator to the other half (QUIRE_BENCH_SERVER_CPUS, set by run.sh).
     */
    static final String SERVER_CPUS = System.getenv().getOrDefault("QUIRE_BENCH_SERVER_CPUS", "");

    static Process java(Path log, List<String> jvmArgs, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (!SERVER_CPUS.isEmpty()) {
            cmd.addAll(List.of("taskset", "-c", SERVER_CPUS));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of(args));
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    static int exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return p.waitFor();
    }

    static void awaitHttp(String url, Duration timeout) throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(url + " not ready within " + timeout);
    }

    static void awaitLog(Path log, String text, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("'" + text + "' not in " + log + " within " + timeout);
    }

    /** Resident set size in MiB, from /proc (Linux). */
    static long rssMiB(Process p) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    /** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on every Linux of these machines). */
    static final double TICKS_PER_SECOND = 100.0;

    /**
     * CPU time (user + system, seconds) of a process's threads whose names start with one of
     * {@code prefixes}, or of the whole process when none are given; -1 where /proc is not there.
     * Threads that have ended no longer count.
     */
    static double cpuSeconds(long pid, String... prefixes) {
        try {
            if (prefixes.length == 0) {
                return ticks(Path.of("/proc", Long.toString(pid), "stat")) / TICKS_PER_SECOND;
            }
            long sum = 0;
            try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path t : (Iterable<Path>) tasks::iterator) {
                    try {
                        String name = Files.readString(t.resolve("comm")).strip();
                        for (String prefix : prefixes) {
                            if (name.startsWith(prefix)) {
                                sum += ticks(t.resolve("stat"));
                                break;
                            }
                        }
                    } catch (IOException ended) {
                        // the thread ended while listed
                    }
                }
            }
            return sum / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime of a /proc stat line (fields 14 and 15; the name in brackets may hold spaces). */
    static long ticks(Path stat) throws IOException {
        String line = Files.readString(stat);
        String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The JIT compilers' threads of a HotSpot JVM. */
    static final String[] COMPILER_THREADS = {"C1 CompilerThre", "C2 CompilerThre"};

    static void stop(Process p) throws InterruptedException {
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
