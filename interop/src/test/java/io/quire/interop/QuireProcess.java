package io.quire.interop;

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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Quire node in embedded mode ({@code quire.jar dev}: its own in-process broker, its data in a
 * folder), run as a separate process from the jar the build made, and plain HTTP calls to it.
 */
final class QuireProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final int port;
    private final Path log;

    private QuireProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts a node on a free port over {@code dataDir} and waits until it is ready. */
    static QuireProcess start(String name, Path dataDir, String... extraArgs) throws Exception {
        String jar = System.getProperty("quire.jar", "../query-node/target/quire.jar");
        if (!Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException(jar + " is missing: build query-node first (mvn package)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = Path.of("target", name + ".log");
        Files.createDirectories(log.getParent());
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-jar", jar, "dev", "--data-dir", dataDir.toString(), "--port", Integer.toString(port),
                "--host", "127.0.0.1"));
        cmd.addAll(List.of(extraArgs));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        QuireProcess node = new QuireProcess(p, port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("the node exited with " + p.exitValue() + ": see " + log);
            }
            try {
                if (node.get("/health/ready").statusCode() == 200) {
                    return node;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        node.close();
        throw new IllegalStateException("the node was not ready within 120 s: see " + log);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** The base URL of Apicurio's v3 API on this node. */
    String apicurioUrl() {
        return url() + "/apis/registry/v3";
    }

    Path log() {
        return log;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    HttpResponse<String> send(String method, String path, String contentType, String body)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", contentType)
                        .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
