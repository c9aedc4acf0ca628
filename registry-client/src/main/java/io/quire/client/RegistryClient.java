package io.quire.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The one client of a registry that speaks Confluent's REST API (a Quire node, Confluent's
 * registry, Apicurio's {@code /apis/ccompat/v7}): typed calls for what Quire's own tools ask of a
 * registry (the exporter, the imports, the operator commands), and {@link #send} for a node's admin
 * endpoints. Every refusal is a {@link RegistryException} with the status and Confluent's error
 * code; a read of something that is not there is an empty answer, not an exception.
 */
public final class RegistryClient {

    /** The content type of Confluent's API. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** An answer as it came: status and body. */
    public record Response(int status, String body) {

        public boolean ok() {
            return status / 100 == 2;
        }

        /** Confluent's {@code error_code} in the body; -1 when there is none. */
        public int errorCode() {
            try {
                return body == null || body.isEmpty() ? -1 : JSON.readTree(body).path("error_code").asInt(-1);
            } catch (JsonProcessingException e) {
                return -1;
            }
        }
    }

    private final String base;
    private final String authorization;
    private final Duration timeout;

    /** {@code authorization} is the whole header value, or null for none. */
    public RegistryClient(String baseUrl, String authorization, Duration timeout) {
        String url = baseUrl.strip();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.authorization = authorization;
        this.timeout = timeout;
    }

    /**
     * A client as a Confluent client's config names the registry: {@code schema.registry.url} (the
     * first of a comma-separated list), and {@code basic.auth.user.info} or {@code bearer.auth.token}.
     */
    public static RegistryClient fromConfig(Map<String, String> config, Duration timeout) {
        String url = config.getOrDefault("schema.registry.url", "").split(",")[0];
        String userInfo = config.get("basic.auth.user.info");
        String token = config.get("bearer.auth.token");
        String authorization = userInfo != null && !userInfo.isEmpty() ? basic(userInfo)
                : token != null && !token.isEmpty() ? "Bearer " + token : null;
        return new RegistryClient(url, authorization, timeout);
    }

    /** The header value of HTTP Basic for {@code user:password}. */
    public static String basic(String userInfo) {
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    public String base() {
        return base;
    }

    /** A subject as a path segment. */
    public static String path(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    // ---- subjects and versions

    /** The registry's subjects ({@code deleted}: soft-deleted ones too). */
    public List<String> subjects(boolean deleted) throws IOException, InterruptedException {
        return strings(ok(send("GET", "/subjects" + (deleted ? "?deleted=true" : ""), null), "list subjects"));
    }

    /** A subject's version numbers ({@code deleted}: soft-deleted ones too); empty when it has none. */
    public List<Integer> versions(String subject, boolean deleted) throws IOException, InterruptedException {
        Response r = send("GET", "/subjects/" + path(subject) + "/versions" + (deleted ? "?deleted=true" : ""), null);
        if (r.status() == 404) {
            return List.of();
        }
        List<Integer> out = new ArrayList<>();
        for (JsonNode n : JSON.readTree(ok(r, "list versions of " + subject).body())) {
            out.add(n.asInt());
        }
        return out;
    }

    /** A subject's version ({@code "latest"} or a number), deleted ones too when asked; empty when none. */
    public Optional<SchemaVersion> version(String subject, String version, boolean deleted)
            throws IOException, InterruptedException {
        Response r = send("GET", "/subjects/" + path(subject) + "/versions/" + version
                + (deleted ? "?deleted=true" : ""), null);
        if (r.status() == 404) {
            return Optional.empty();
        }
        return Optional.of(JSON.readValue(ok(r, "read " + subject + " version " + version).body(),
                SchemaVersion.class));
    }

    /**
     * {@code POST /subjects/{s}}: the version of the subject that holds this schema, as the registry
     * decides equality (its own parse and, with {@code normalize}, its normalisation); empty when the
     * subject or the schema is not there. Soft-deleted versions count only with {@code deleted}.
     */
    public Optional<SchemaVersion> lookup(String subject, RegisterRequest request, boolean normalize, boolean deleted)
            throws IOException, InterruptedException {
        String query = normalize && deleted ? "?normalize=true&deleted=true" : normalize ? "?normalize=true"
                : deleted ? "?deleted=true" : "";
        Response r = send("POST", "/subjects/" + path(subject) + query, JSON.writeValueAsString(request));
        if (r.status() == 404) {
            return Optional.empty();
        }
        return Optional.of(JSON.readValue(ok(r, "look up a schema in " + subject).body(), SchemaVersion.class));
    }

    /**
     * {@code POST /compatibility/subjects/{s}/versions/{v}?verbose=true}: whether the registry would
     * accept this schema as the subject's next version, with its messages when not.
     */
    public Compatibility compatibility(String subject, String version, RegisterRequest request, boolean normalize)
            throws IOException, InterruptedException {
        Response r = send("POST", "/compatibility/subjects/" + path(subject) + "/versions/" + version
                + "?verbose=true" + (normalize ? "&normalize=true" : ""), JSON.writeValueAsString(request));
        return JSON.readValue(ok(r, "check the compatibility of " + subject).body(), Compatibility.class);
    }

    /** Registers a schema (or imports one with its id and version, in IMPORT mode). */
    public RegisteredId register(String subject, RegisterRequest request, boolean normalize)
            throws IOException, InterruptedException {
        Response r = send("POST", registerPath(subject, normalize), JSON.writeValueAsString(request));
        return JSON.readValue(ok(r, "register " + describe(subject, request)).body(), RegisteredId.class);
    }

    /** {@link #register} without waiting; the future fails with a {@link RegistryException}. */
    public CompletableFuture<RegisteredId> registerAsync(String subject, RegisterRequest request, boolean normalize) {
        String body;
        try {
            body = JSON.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sendAsync("POST", registerPath(subject, normalize), body).thenApply(r -> {
            try {
                return JSON.readValue(ok(r, "register " + describe(subject, request)).body(), RegisteredId.class);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        });
    }

    /**
     * Deletes a version (soft, or {@code permanent}). A version that is not there (any more) is a
     * refusal like any other, with its code (40401, 40402, 40406, 40407), for the caller to judge.
     */
    public void deleteVersion(String subject, int version, boolean permanent) throws IOException, InterruptedException {
        ok(send("DELETE", "/subjects/" + path(subject) + "/versions/" + version
                + (permanent ? "?permanent=true" : ""), null),
                (permanent ? "permanently delete " : "delete ") + subject + " version " + version);
    }

    /** Deletes a subject (soft, or {@code permanent}: soft-deleted first). */
    public void deleteSubject(String subject, boolean permanent) throws IOException, InterruptedException {
        ok(send("DELETE", "/subjects/" + path(subject) + (permanent ? "?permanent=true" : ""), null),
                (permanent ? "permanently delete " : "delete ") + subject);
    }

    // ---- settings

    /**
     * A subject's own config (null subject: the registry's), not what it inherits; empty when it has
     * none of its own.
     */
    public Optional<ConfigAnswer> config(String subject) throws IOException, InterruptedException {
        Response r = send("GET", subject == null ? "/config" : "/config/" + path(subject) + "?defaultToGlobal=false",
                null);
        if (r.status() == 404) {
            return Optional.empty();
        }
        return Optional.of(JSON.readValue(ok(r, "read the config of " + subject).body(), ConfigAnswer.class));
    }

    /** A subject's own mode (null subject: the registry's); empty when it has none of its own. */
    public Optional<String> mode(String subject) throws IOException, InterruptedException {
        Response r = send("GET", subject == null ? "/mode" : "/mode/" + path(subject), null);
        if (r.status() == 404) {
            return Optional.empty();
        }
        return Optional.ofNullable(JSON.readTree(ok(r, "read mode").body()).path("mode").asText(null));
    }

    /** Sets a subject's mode (null subject: the registry's); {@code force} even over existing schemas. */
    public void setMode(String subject, String mode, boolean force) throws IOException, InterruptedException {
        String path = (subject == null ? "/mode" : "/mode/" + path(subject)) + (force ? "?force=true" : "");
        ok(send("PUT", path, JSON.writeValueAsString(Map.of("mode", mode))),
                "set mode " + mode + " on " + (subject == null ? "the registry" : subject));
    }

    /** Updates a subject's config (null subject: the registry's) with the fields the request sets. */
    /** {@code DELETE /config/{s}}: the subject's own settings removed (a subject with none: 40401, thrown). */
    public void deleteConfig(String subject) throws IOException, InterruptedException {
        ok(send("DELETE", "/config/" + path(subject), null), "deleting the settings of " + subject);
    }

    public void setConfig(String subject, ConfigRequest config) throws IOException, InterruptedException {
        ok(send("PUT", subject == null ? "/config" : "/config/" + path(subject), JSON.writeValueAsString(config)),
                "set the config of " + (subject == null ? "the registry" : subject));
    }

    /** Creates or replaces associations ({@code PUT /associations}); the body is Confluent's request. */
    public void putAssociations(Object request) throws IOException, InterruptedException {
        ok(send("PUT", "/associations", JSON.writeValueAsString(request)), "put associations");
    }

    /**
     * Applies changes to several subjects as one, with Quire's {@code POST /changesets}: all of them
     * land or none does. Empty when the registry has no such endpoint (it is not a Quire node); a
     * refusal is a {@link RegistryException} with the registry's message, the refused step named.
     *
     * <p>The route is asked for first without a body ({@code GET}, which a Quire node answers 405):
     * a registry without it may answer a {@code POST} 404 before reading the body, and then the
     * JDK's client can wait for its request's timeout instead of reading the answer (seen against
     * Apicurio with change sets of 20 kB, about one request in 60). Only a 404 for the path means
     * another registry; any other answer to that question is a refusal, so that a Quire node that
     * fails to answer it is never applied to one call at a time.
     */
    public Optional<ChangeSetAnswer> applyChangeSet(ChangeSetRequest set) throws IOException, InterruptedException {
        Response route = send("GET", "/changesets", null);
        int routeCode = route.errorCode();
        if (route.status() == 404 && (routeCode == -1 || routeCode == 404)) {
            return Optional.empty(); // no route for the path: another registry
        }
        if (route.status() != 405) {
            throw new RegistryException(route.status(), routeCode, "change set " + set.id()
                    + ": asking whether the registry takes change sets: HTTP " + route.status() + " " + route.body());
        }
        Response r = send("POST", "/changesets", JSON.writeValueAsString(set));
        int code = r.errorCode();
        if (!r.ok()) {
            String message = null;
            try {
                message = JSON.readTree(r.body()).path("message").asText(null);
            } catch (JsonProcessingException e) {
                // not JSON: the body as it came
            }
            throw new RegistryException(r.status(), code, "change set " + set.id() + ": " + (message != null ? message
                    : "HTTP " + r.status() + " " + r.body()));
        }
        return Optional.of(JSON.readValue(r.body(), ChangeSetAnswer.class));
    }

    // ---- any call

    /** The JSON answer of a GET that must succeed. */
    public JsonNode getJson(String path) throws IOException, InterruptedException {
        return JSON.readTree(ok(send("GET", path, null), "GET " + path).body());
    }

    public Response send(String method, String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    public CompletableFuture<Response> sendAsync(String method, String path, String body) {
        return HTTP.sendAsync(request(method, path, body), HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Response(r.statusCode(), r.body()));
    }

    /** A JSON body of a typed request. */
    public static String json(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The answer if it is a success, else the refusal as an exception naming {@code what}. */
    public static Response ok(Response r, String what) throws RegistryException {
        if (r.ok()) {
            return r;
        }
        String body = r.body() == null ? "" : r.body();
        throw new RegistryException(r.status(), r.errorCode(), what + ": HTTP " + r.status() + " "
                + (body.length() > 300 ? body.substring(0, 300) : body));
    }

    private HttpRequest request(String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Accept", CONTENT_TYPE)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", CONTENT_TYPE);
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b.build();
    }

    private static String registerPath(String subject, boolean normalize) {
        return "/subjects/" + path(subject) + "/versions" + (normalize ? "?normalize=true" : "");
    }

    private static String describe(String subject, RegisterRequest request) {
        return request.version() == null ? subject : subject + " version " + request.version();
    }

    private static List<String> strings(Response r) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode n : JSON.readTree(r.body())) {
            out.add(n.asText());
        }
        return out;
    }
}
