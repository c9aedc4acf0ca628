package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The HTTP client the operator commands use to talk to a node: base URL, credentials, timeouts. */
final class NodeClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    final String base;
    private final String authorization;
    private final Duration timeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** {@code authorization} may be null (no header). */
    NodeClient(String base, String authorization, Duration timeout) {
        this.base = base.strip();
        this.authorization = authorization;
        this.timeout = timeout;
    }

    private HttpRequest request(String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b.build();
    }

    HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        return http.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
    }

    CompletableFuture<HttpResponse<String>> sendAsync(String method, String path, String body) {
        return http.sendAsync(request(method, path, body), HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON answer of a GET that must succeed. */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = send("GET", path, null);
        if (r.statusCode() != 200) {
            throw new IllegalStateException(base + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }
}
