package io.quire.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules and the dashboard against a real scrape: Prometheus (Debian's, installed by
 * .ci/run) scrapes a running node every second and evaluates compose/monitoring/quire-alerts.yaml;
 * every recorded series and every dashboard query must return series from it, every rule must
 * evaluate without error, and QuireNodeDown must go pending when the node is stopped. promtool
 * checks the rules and runs their unit tests (quire-alerts.test.yaml) first.
 */
class MonitoringIT {

    private static final Path RULES = Path.of("monitoring", "quire-alerts.yaml").toAbsolutePath();
    private static final Path RULE_TESTS = Path.of("monitoring", "quire-alerts.test.yaml").toAbsolutePath();
    private static final Path DASHBOARD = Path.of("monitoring", "quire-dashboard.json");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyRuleAndPanelReadsSeriesOfARunningNode() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/prometheus"))
                        && Files.isExecutable(Path.of("/usr/bin/promtool")),
                "Debian's prometheus package is missing (.ci/run installs it): alert rules not checked");
        run(List.of("/usr/bin/promtool", "check", "rules", RULES.toString()));
        run(List.of("/usr/bin/promtool", "test", "rules", RULE_TESTS.toString()));

        int nodePort = freePort();
        int promPort = freePort();
        String jar = System.getProperty("quire.jar", "../query-node/target/quire.jar");
        Process node = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.io.tmpdir=" + dir, "-jar", jar, "dev", "--data-dir", dir.resolve("node").toString(),
                "--port", Integer.toString(nodePort), "--host", "127.0.0.1", "--view-memory-mib", "64")
                .redirectErrorStream(true).redirectOutput(dir.resolve("node.log").toFile()).start();
        Process prometheus = null;
        try {
            String base = "http://127.0.0.1:" + nodePort;
            waitFor(() -> status(base + "/health/ready") == 200, 120, "node ready");
            for (int i = 0; i < 20; i++) {
                assertEquals(200, post(base + "/subjects/monitored-" + i + "/versions",
                        "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"M" + i
                                + "\\\",\\\"fields\\\":[]}\"}"));
            }
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      evaluation_interval: 1s
                    rule_files:
                      - %s
                    scrape_configs:
                      - job_name: quire
                        static_configs:
                          - targets: ['127.0.0.1:%d']
                    """.formatted(RULES, nodePort));
            prometheus = new ProcessBuilder("/usr/bin/prometheus", "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + promPort)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            String prom = "http://127.0.0.1:" + promPort;
            waitFor(() -> status(prom + "/-/ready") == 200, 60, "Prometheus ready");

            // traffic while Prometheus scrapes: registrations, reads by id, a miss
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            int n = 0;
            while (System.nanoTime() < until) {
                post(base + "/subjects/monitored-more-" + n++ + "/versions",
                        "{\"schema\":\"{\\\"type\\\":\\\"enum\\\",\\\"name\\\":\\\"E\\\",\\\"symbols\\\":[\\\"A\\\"]}\"}");
                status(base + "/schemas/ids/1");
                status(base + "/schemas/ids/999999");
                Thread.sleep(50);
            }

            JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
            List<String> records = new ArrayList<>();
            Map<String, String> alerts = new LinkedHashMap<>();
            for (JsonNode group : rules.path("groups")) {
                for (JsonNode rule : group.path("rules")) {
                    if (rule.has("record")) {
                        records.add(rule.path("record").asText());
                    } else {
                        alerts.put(rule.path("alert").asText(), rule.path("expr").asText());
                    }
                }
            }
            for (Map.Entry<String, String> a : alerts.entrySet()) {
                assertFalse(a.getValue().matches("(?s).*\\bquire_[a-z_]+.*"),
                        a.getKey() + " reads only recorded series (checked below against the scrape) and up: " + a.getValue());
            }
            for (String record : records) {
                waitFor(() -> !query(prom, record).isEmpty(), 60, "series for " + record);
            }
            JsonNode dashboard = JSON.readTree(DASHBOARD.toFile());
            int queries = 0;
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    String expr = target.path("expr").asText().replace("$job", ".*").replace("$__rate_interval", "1m");
                    waitFor(() -> !query(prom, expr).isEmpty(), 30, "panel '" + panel.path("title").asText() + "': " + expr);
                    queries++;
                }
            }
            assertTrue(queries >= 14, "the dashboard's queries: " + queries);

            JsonNode groups = get(prom + "/api/v1/rules").path("data").path("groups");
            int evaluated = 0;
            for (JsonNode group : groups) {
                for (JsonNode rule : group.path("rules")) {
                    assertEquals("ok", rule.path("health").asText(), rule.toString());
                    evaluated++;
                }
            }
            assertEquals(records.size() + alerts.size(), evaluated, "Prometheus loaded every rule");

            node.destroy();
            assertTrue(node.waitFor(60, TimeUnit.SECONDS));
            waitFor(() -> {
                for (JsonNode alert : get(prom + "/api/v1/alerts").path("data").path("alerts")) {
                    if (alert.path("labels").path("alertname").asText().equals("QuireNodeDown")) {
                        return true; // pending for its 2 minutes, then firing
                    }
                }
                return false;
            }, 30, "QuireNodeDown pending once the node is gone");
        } finally {
            node.destroyForcibly();
            node.waitFor(30, TimeUnit.SECONDS);
            if (prometheus != null) {
                prometheus.destroy();
                prometheus.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private List<JsonNode> query(String prom, String expr) throws IOException, InterruptedException {
        JsonNode r = get(prom + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        assertEquals("success", r.path("status").asText(), () -> expr + ": " + r);
        List<JsonNode> out = new ArrayList<>();
        r.path("data").path("result").forEach(out::add);
        return out;
    }

    private static JsonNode get(String url) throws IOException, InterruptedException {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static int status(String url) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    private static int post(String url, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private void waitFor(Check check, int seconds, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + seconds + " s; node log:\n" + tail("node.log")
                        + "\nprometheus log:\n" + tail("prometheus.log"));
            }
            Thread.sleep(500);
        }
    }

    private String tail(String file) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(file));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(none)";
        }
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
