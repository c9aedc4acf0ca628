package io.quire.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C load generator {@code wrk} (Debian's package), for the stages that measure against the
 * machine's HTTP limit: it takes about half the CPU a request that the suite's own Java generator
 * does, so on two shared cores it leaves the server more of them (the trivial server answers
 * ~85-96k req/s under wrk, ~42-49k under the Java generator).
 */
final class Wrk {

    private Wrk() {
    }

    /** Whether {@code wrk} is on the PATH. */
    static boolean available() {
        try {
            Process p = new ProcessBuilder("wrk", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(10, TimeUnit.SECONDS);
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs {@code wrk -t2 -cCONNECTIONS -dSECONDS --latency -s SCRIPT URL} and returns its output. */
    static String run(Path script, int connections, int seconds, String url, Map<String, String> env)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("wrk", "-t2", "-c" + connections, "-d" + seconds + "s", "--latency",
                "-s", script.toString(), url));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("wrk did not end: " + out);
        }
        if (p.exitValue() != 0) {
            throw new IOException("wrk exited with " + p.exitValue() + ": " + out);
        }
        return out;
    }

    private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|75|90|99)(?:\\.0+)?%\\s+([0-9.]+)(us|ms|s)\\s*$",
            Pattern.MULTILINE);
    private static final Pattern MAX = Pattern.compile("^[ \\t]*Latency[ \\t]+\\S+[ \\t]+\\S+[ \\t]+([0-9.]+)(us|ms|s)",
            Pattern.MULTILINE);
    private static final Pattern REQUESTS = Pattern.compile("^\\s*(\\d+) requests in ([0-9.]+)(us|ms|s|m)", Pattern.MULTILINE);
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s*(\\d+)");
    private static final Pattern SOCKET = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    /**
     * wrk's report as a {@link Result}: requests answered 2xx/3xx as ok, the others and socket
     * errors by kind, the 50th/90th/99th percentiles and the maximum (wrk gives no 95th or 99.9th:
     * -1 there).
     */
    static Result parse(String target, String scenario, int connections, String out) {
        Matcher req = REQUESTS.matcher(out);
        if (!req.find()) {
            throw new IllegalArgumentException("not a wrk report: " + out);
        }
        long requests = Long.parseLong(req.group(1));
        double seconds = micros(req.group(2), req.group(3)) / 1e6;
        Map<String, Long> errors = new TreeMap<>();
        Matcher bad = NON_2XX.matcher(out);
        long non2xx = bad.find() ? Long.parseLong(bad.group(1)) : 0;
        if (non2xx > 0) {
            errors.put("non-2xx", non2xx);
        }
        Matcher sock = SOCKET.matcher(out);
        if (sock.find()) {
            String[] kinds = {"connect", "read", "write", "timeout"};
            for (int i = 0; i < kinds.length; i++) {
                long n = Long.parseLong(sock.group(i + 1));
                if (n > 0) {
                    errors.put("socket-" + kinds[i], n);
                }
            }
        }
        Map<String, Long> pct = new HashMap<>();
        Matcher m = PERCENTILE.matcher(out);
        while (m.find()) {
            pct.put(m.group(1), Math.round(micros(m.group(2), m.group(3))));
        }
        if (!pct.containsKey("99")) {
            throw new IllegalArgumentException("no latency distribution (run wrk with --latency): " + out);
        }
        Matcher max = MAX.matcher(out);
        long maxMicros = max.find() ? Math.round(micros(max.group(1), max.group(2))) : -1;
        Map<String, Object> extra = new HashMap<>();
        extra.put("loadGenerator", "wrk -t2");
        return new Result(target, scenario, connections, seconds, requests - non2xx, errors, pct.get("50"),
                pct.getOrDefault("90", -1L), -1, pct.get("99"), -1, maxMicros, new long[0], extra);
    }

    private static double micros(String value, String unit) {
        double v = Double.parseDouble(value);
        return switch (unit) {
            case "us" -> v;
            case "ms" -> v * 1e3;
            case "s" -> v * 1e6;
            case "m" -> v * 60e6;
            default -> throw new IllegalArgumentException(unit);
        };
    }

    /** A script of bench/wrk, from the repository's root (where bench/run.sh runs the suite). */
    static Path script(String name) {
        Path p = Path.of("bench/wrk", name);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p.toAbsolutePath() + " not found: run the suite from the repository's root");
        }
        return p;
    }
}
