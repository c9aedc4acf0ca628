package io.quire.node.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Keycloak: the {@code keycloak-quarkus-dist} zip from Maven Central (unpacked by the
 * build under target/keycloak), started in dev mode as a separate process on a JDK 21 or newer,
 * with the realms of {@code src/test/resources/keycloak} imported. One per test JVM, stopped when
 * it exits.
 */
final class Keycloak {

    static final String ADMIN = "kc-admin";
    static final String ADMIN_PASSWORD = "kc-admin-pw";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Keycloak running;

    final int port;
    private final Process process;
    private final Path log;

    private Keycloak(int port, Process process, Path log) {
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /** A JDK that runs Keycloak (21 or newer), if the machine has one. */
    static Optional<Path> javaHome() {
        String configured = System.getenv("QUIRE_KEYCLOAK_JAVA_HOME");
        if (configured != null && Files.isExecutable(Path.of(configured, "bin", "java"))) {
            return Optional.of(Path.of(configured));
        }
        if (Runtime.version().feature() >= 21) {
            return Optional.of(Path.of(System.getProperty("java.home")));
        }
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            return jvms.filter(p -> Files.isExecutable(p.resolve("bin/java")))
                    .filter(p -> feature(p) >= 21)
                    .max(Comparator.comparingInt(Keycloak::feature));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int feature(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring(line.indexOf('"') + 1);
                    return Integer.parseInt(v.split("[.\"]")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not a JDK we can read
        }
        return 0;
    }

    static Path home() {
        return Path.of(System.getProperty("keycloak.home", "target/keycloak/keycloak-26.5.6"));
    }

    static boolean available() {
        return javaHome().isPresent() && Files.isExecutable(home().resolve("bin/kc.sh"));
    }

    static synchronized Keycloak get() throws Exception {
        if (running != null) {
            return running;
        }
        Path import_ = Files.createDirectories(home().resolve("data/import"));
        for (String realm : new String[]{"quire-realm.json", "other-realm.json"}) {
            Files.copy(Path.of("src/test/resources/keycloak", realm), import_.resolve(realm),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = Path.of("target", "keycloak.log").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder(home().resolve("bin/kc.sh").toString(), "start-dev",
                "--http-port", Integer.toString(port), "--http-host", "127.0.0.1", "--import-realm",
                "--cache", "local", "--http-management-port", Integer.toString(port + 1 > 65535 ? port - 1 : port + 1))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", javaHome().orElseThrow().toString());
        pb.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN);
        pb.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
        pb.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
        // the dev-mode H2 database under the dist: start from the imported realms every time
        io.quire.node.view.snapshot.Folders.deleteTree(home().resolve("data/h2"));
        Process p = pb.start();
        Keycloak kc = new Keycloak(port, p, log);
        Runtime.getRuntime().addShutdownHook(new Thread(kc::stop));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("Keycloak exited with " + p.exitValue() + ": see " + log);
            }
            try {
                if (status(kc.issuer("quire") + "/.well-known/openid-configuration") == 200
                        && status(kc.issuer("other") + "/.well-known/openid-configuration") == 200) {
                    running = kc;
                    return kc;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        kc.stop();
        throw new IllegalStateException("Keycloak was not up within 180 s: see " + log);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    String issuer(String realm) {
        return url() + "/realms/" + realm;
    }

    String tokenEndpoint(String realm) {
        return issuer(realm) + "/protocol/openid-connect/token";
    }

    /** An access token by the client-credentials grant. */
    String clientToken(String realm, String clientId, String secret) throws Exception {
        return token(realm, Map.of("grant_type", "client_credentials", "client_id", clientId, "client_secret", secret));
    }

    /** A user's access token by the password grant of the console's public client. */
    String userToken(String user, String password) throws Exception {
        return token("quire", Map.of("grant_type", "password", "client_id", "quire-console", "username", user,
                "password", password, "scope", "openid"));
    }

    private String token(String realm, Map<String, String> form) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(tokenEndpoint(realm)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(form))).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("Keycloak refused a token: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body()).path("access_token").asText();
    }

    /**
     * Rotates the realm's signing key as an operator does: a new RSA key provider with a higher
     * priority signs from now on; the old key stays enabled for verification until removed.
     */
    void rotateKeys(String realm) throws Exception {
        String admin = token("master", Map.of("grant_type", "password", "client_id", "admin-cli",
                "username", ADMIN, "password", ADMIN_PASSWORD));
        JsonNode realmRep = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/admin/realms/" + realm))
                .header("Authorization", "Bearer " + admin).build(), HttpResponse.BodyHandlers.ofString()).body());
        Map<String, Object> component = new LinkedHashMap<>();
        component.put("name", "rotated-" + System.currentTimeMillis());
        component.put("providerId", "rsa-generated");
        component.put("providerType", "org.keycloak.keys.KeyProvider");
        component.put("parentId", realmRep.path("id").asText());
        component.put("config", Map.of("priority", new String[]{"500"}, "keySize", new String[]{"2048"},
                "active", new String[]{"true"}, "enabled", new String[]{"true"}, "algorithm", new String[]{"RS256"}));
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/admin/realms/" + realm + "/components"))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(component))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("Keycloak refused the new key: " + r.statusCode() + " " + r.body());
        }
    }

    /** The {@code kid}s of the realm's published key set. */
    java.util.List<String> keyIds(String realm) throws Exception {
        JsonNode jwks = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(issuer(realm)
                + "/protocol/openid-connect/certs")).build(), HttpResponse.BodyHandlers.ofString()).body());
        java.util.List<String> out = new java.util.ArrayList<>();
        jwks.path("keys").forEach(k -> out.add(k.path("kid").asText()));
        return out;
    }

    private static String form(Map<String, String> form) {
        StringBuilder sb = new StringBuilder();
        form.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return sb.toString();
    }

    private static int status(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    void stop() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
