package io.quire.node.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for the tests: real requests over loopback, JSON answers. */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    record Response(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        int errorCode() {
            return json().path("error_code").asInt(-1);
        }

        long offset() {
            return Long.parseLong(raw.headers().firstValue("X-Quire-Offset").orElseThrow());
        }
    }

    private final HttpClient client;
    private final String base;
    private final String authorization;

    Http(int port) {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), "http://127.0.0.1:" + port, null);
    }

    /** The port this client talks to. */
    int port() {
        return URI.create(base).getPort();
    }

    Http(HttpClient client, String base, String authorization) {
        this.client = client;
        this.base = base;
        this.authorization = authorization;
    }

    /** The same client and server, sending this {@code Authorization} header (null: none). */
    Http as(String authorizationHeader) {
        return new Http(client, base, authorizationHeader);
    }

    static String basic(String user, String password) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString(
                (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    Response send(String method, String path, String body) {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body);
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", CONTENT_TYPE)
                .method(method, publisher));
    }

    Response get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Response get(String path, String header, String value) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header(header, value).GET());
    }

    Response post(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", CONTENT_TYPE)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Response put(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", CONTENT_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    Response delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
    }

    private Response send(HttpRequest.Builder b) {
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> r = client.send(b.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A register body for an Avro schema given as JSON text. */
    static String schemaBody(String avroJson) {
        try {
            return JSON.writeValueAsString(java.util.Map.of("schema", avroJson));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A distinct Avro record schema per {@code n}. */
    static String record(String name, String... fields) {
        StringBuilder sb = new StringBuilder("{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[");
        for (int i = 0; i < fields.length; i++) {
            sb.append(i == 0 ? "" : ",").append(fields[i]);
        }
        return sb.append("]}").toString();
    }
}
