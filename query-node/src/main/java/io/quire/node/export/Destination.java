package io.quire.node.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.codec.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A registry that speaks Confluent's API, as an exporter's config names it:
 * {@code schema.registry.url} (the first of a comma-separated list), and
 * {@code basic.auth.user.info} or {@code bearer.auth.token} for credentials.
 */
final class Destination {

    /** A refusal or failure of the destination, with its status and body. */
    static final class Failure extends IOException {
        final int status;

        Failure(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String TYPE = "application/vnd.schemaregistry.v1+json";

    private final String base;
    private final String authorization;

    Destination(Map<String, String> config) {
        String url = config.getOrDefault("schema.registry.url", "").split(",")[0].strip();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        String userInfo = config.get("basic.auth.user.info");
        String token = config.get("bearer.auth.token");
        if (userInfo != null && !userInfo.isEmpty()) {
            authorization = "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        } else if (token != null && !token.isEmpty()) {
            authorization = "Bearer " + token;
        } else {
            authorization = null;
        }
    }

    static String path(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The version numbers of a subject ({@code deleted}: soft-deleted ones too); empty when it has none. */
    List<Integer> versions(String subject, boolean deleted) throws IOException, InterruptedException {
        HttpResponse<String> r = send("GET", "/subjects/" + path(subject) + "/versions" + (deleted ? "?deleted=true" : ""),
                null);
        if (r.statusCode() == 404) {
            return List.of();
        }
        check(r, "list versions of " + subject);
        List<Integer> out = new ArrayList<>();
        for (JsonNode n : Json.MAPPER.readTree(r.body())) {
            out.add(n.asInt());
        }
        return out;
    }

    /** The id the destination stores a subject's version under; -1 when it has no such version. */
    long idOf(String subject, int version) throws IOException, InterruptedException {
        HttpResponse<String> r = send("GET", "/subjects/" + path(subject) + "/versions/" + version + "?deleted=true", null);
        if (r.statusCode() == 404) {
            return -1;
        }
        check(r, "read " + subject + " version " + version);
        return Json.MAPPER.readTree(r.body()).path("id").asLong(-1);
    }

    /** Puts a subject in IMPORT mode (force: it may hold versions already). */
    void importMode(String subject) throws IOException, InterruptedException {
        HttpResponse<String> r = send("PUT", "/mode/" + path(subject) + "?force=true", "{\"mode\":\"IMPORT\"}");
        check(r, "set IMPORT mode on " + subject);
    }

    /** Imports one version with its id; fails unless the destination answers with that id. */
    void importVersion(String subject, ObjectNode body, long id) throws IOException, InterruptedException {
        HttpResponse<String> r = send("POST", "/subjects/" + path(subject) + "/versions", body.toString());
        check(r, "import " + subject + " version " + body.path("version").asInt());
        long got = Json.MAPPER.readTree(r.body()).path("id").asLong(-1);
        if (got != id) {
            throw new Failure(r.statusCode(), "the destination stored " + subject + " version " + body.path("version")
                    + " under id " + got + ", not " + id);
        }
    }

    void deleteVersion(String subject, int version, boolean permanent) throws IOException, InterruptedException {
        HttpResponse<String> r = send("DELETE", "/subjects/" + path(subject) + "/versions/" + version
                + (permanent ? "?permanent=true" : ""), null);
        if (r.statusCode() != 404) {
            check(r, "delete " + subject + " version " + version);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Accept", TYPE).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", TYPE);
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void check(HttpResponse<String> r, String what) throws Failure {
        if (r.statusCode() / 100 != 2) {
            String body = r.body() == null ? "" : r.body();
            throw new Failure(r.statusCode(), what + ": HTTP " + r.statusCode() + " "
                    + (body.length() > 300 ? body.substring(0, 300) : body));
        }
    }
}
