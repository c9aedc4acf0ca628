package io.quire.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.quire.node.kafka.EmbeddedKafka;
import io.quire.node.security.UsersFile;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node started from exactly what the chart renders: the container's command and arguments, its
 * environment, its Secret's files at their mount paths. The only changes are the ones a container
 * runtime makes: each volume's mount path is a folder here, and the image's jar is the one the
 * build made. A real broker runs in-process.
 */
class ChartNodeIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void aNodeStartedFromTheRenderedPodBecomesReadyServesAndStopsWithinItsGracePeriod() throws Exception {
        String jar = System.getProperty("quire.jar", "../query-node/target/quire.jar");
        assertTrue(Files.isRegularFile(Path.of(jar)), jar + " is missing: build query-node first");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String hash = UsersFile.hash("s3cret".toCharArray(), 6);
        try (EmbeddedKafka kafka = new EmbeddedKafka(dir.resolve("kafka")).start()) {
            Rendered r = Rendered.of("registry", "schemas", List.of(), Map.of(
                    "kafka.bootstrapServers", kafka.bootstrapServers(),
                    "journal.replication", 1, "journal.minInsyncReplicas", 1,
                    "memory.heapMiB", 256, "memory.viewMiB", 64,
                    "service.port", port,
                    "shutdown.delayMs", 1000,
                    "auth.users", "ci:" + hash + ":writer\nops:" + hash + ":admin\n"));
            StatefulSet sts = r.one(StatefulSet.class);
            Container c = r.container();
            Map<String, Path> mounts = mountVolumes(r, sts, c);

            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", c.getCommand().get(0)).toString());
            for (String a : c.getArgs()) {
                command.add(a.equals("/opt/quire/quire.jar") ? jar : local(a, mounts));
            }
            Map<String, String> env = new LinkedHashMap<>();
            r.environment("registry-quire-0", Map.of()).forEach((k, v) -> env.put(k, local(v, mounts)));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("node.log").toFile());
            pb.environment().clear();
            pb.environment().putAll(env);
            Process node = pb.start();
            try {
                String base = "http://127.0.0.1:" + port;
                String ready = c.getReadinessProbe().getHttpGet().getPath();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                int status = 0;
                while (status != 200 && System.nanoTime() < deadline) {
                    assertTrue(node.isAlive(), () -> "the node exited: " + log());
                    try {
                        status = send(base + ready, "GET", null, null).statusCode();
                    } catch (IOException e) {
                        Thread.sleep(250);
                    }
                }
                assertEquals(200, status, this::log);
                assertEquals(200, send(base + c.getLivenessProbe().getHttpGet().getPath(), "GET", null, null).statusCode());

                // the users file came through the rendered Secret and its mount
                String basic = "Basic " + Base64.getEncoder().encodeToString("ci:s3cret".getBytes(StandardCharsets.UTF_8));
                assertEquals(401, send(base + "/subjects/chart-value/versions", "POST", null,
                        "{\"schema\":\"\\\"string\\\"\"}").statusCode());
                HttpResponse<String> reg = send(base + "/subjects/chart-value/versions", "POST", basic,
                        "{\"schema\":\"\\\"string\\\"\"}");
                assertEquals(200, reg.statusCode(), reg.body());
                assertEquals(200, send(base + "/schemas/ids/1", "GET", basic, null).statusCode());
                // the node runs with the rendered name and memory budget
                String metrics = send(base + "/metrics", "GET", basic, null).body();
                assertTrue(metrics.contains("quire_node_ready 1.0"), metrics);

                long stopAt = System.nanoTime();
                node.destroy(); // SIGTERM, as the kubelet sends it
                long grace = sts.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
                assertTrue(node.waitFor(grace, TimeUnit.SECONDS), "the node outlived its grace period of " + grace + " s");
                long tookMs = (System.nanoTime() - stopAt) / 1_000_000;
                assertTrue(tookMs >= 1000, "the node kept serving through its shutdown delay (" + tookMs + " ms)");
                assertTrue(log().contains("registry-quire-0"), "node id from the pod's name: " + log());
            } finally {
                node.destroyForcibly();
                node.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** A folder per volume mount; a Secret volume's files written from the rendered Secret. */
    private Map<String, Path> mountVolumes(Rendered r, StatefulSet sts, Container c) throws IOException {
        Map<String, Path> mounts = new LinkedHashMap<>();
        for (VolumeMount m : c.getVolumeMounts()) {
            Path local = Files.createDirectories(dir.resolve("pod").resolve(m.getName()));
            mounts.put(m.getMountPath(), local);
            Volume v = sts.getSpec().getTemplate().getSpec().getVolumes().stream()
                    .filter(x -> x.getName().equals(m.getName())).findFirst().orElse(null);
            if (v != null && v.getSecret() != null) {
                Secret secret = r.one(Secret.class);
                assertEquals(secret.getMetadata().getName(), v.getSecret().getSecretName());
                for (Map.Entry<String, String> e : secret.getStringData().entrySet()) {
                    Files.writeString(local.resolve(e.getKey()), e.getValue());
                }
            }
        }
        assertTrue(mounts.containsKey("/var/lib/quire") && mounts.containsKey("/tmp"), mounts.toString());
        return mounts;
    }

    /** {@code value} with a mount path at its start, or after {@code =}, replaced by its folder here. */
    private static String local(String value, Map<String, Path> mounts) {
        for (Map.Entry<String, Path> m : mounts.entrySet()) {
            String p = m.getKey();
            int at = value.startsWith(p) ? 0 : value.indexOf("=" + p) >= 0 ? value.indexOf("=" + p) + 1 : -1;
            if (at >= 0 && (value.length() == at + p.length() || value.charAt(at + p.length()) == '/')) {
                return value.substring(0, at) + m.getValue() + value.substring(at + p.length());
            }
        }
        return value;
    }

    private static HttpResponse<String> send(String url, String method, String authorization, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("node.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
