package io.quire.node.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Apicurio Registry 3.3.3 (Maven Central's distribution, unpacked by the build) in a process of
 * its own on the machine's JDK 21+, listening on a free port, in-memory storage; the test skips itself
 * where either is missing. {@link #ccompat} is its Confluent-compatible API.
 */
final class ApicurioProcess implements AutoCloseable {

    final Process process;
    final String ccompat;
    final Http http;

    private ApicurioProcess(Process process, int port) {
        this.process = process;
        this.ccompat = "http://127.0.0.1:" + port + "/apis/ccompat/v7";
        this.http = new Http(HttpClient.newHttpClient(), ccompat, null);
    }

    static Optional<Path> home() {
        Path home = Path.of(System.getProperty("apicurio.home", "target/apicurio"));
        return Files.isRegularFile(home.resolve("quarkus-run.jar")) ? Optional.of(home) : Optional.empty();
    }

    /** Starts one in {@code dir} (its log: {@code apicurio.log}) and waits until its API answers. */
    static ApicurioProcess start(Path dir) throws Exception {
        Optional<Path> jdk = Keycloak.javaHome();
        assumeTrue(jdk.isPresent() && home().isPresent(), "Apicurio needs a JDK 21+ and its unpacked distribution");
        int port = ExportToApicurioIT.freePort();
        Path log = dir.resolve("apicurio.log");
        Process p = new ProcessBuilder(jdk.get().resolve("bin/java").toString(), "-Xmx512m",
                // the distribution fixes its management interface on at build time: it gets a free port too
                "-Dquarkus.http.port=" + port, "-Dquarkus.management.port=" + ExportToApicurioIT.freePort(), "-jar",
                home().get().resolve("quarkus-run.jar").toString()).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        ApicurioProcess a = new ApicurioProcess(p, port);
        try {
            Nodes.await(() -> {
                try {
                    return a.http.get("/subjects").status() == 200;
                } catch (RuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(120), () -> "Apicurio listening: " + ExportersIT.tail(log));
        } catch (RuntimeException | Error e) {
            a.close();
            throw e;
        }
        return a;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
