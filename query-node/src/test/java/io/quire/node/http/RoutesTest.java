package io.quire.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.node.config.QuireConfig;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.service.RegistryHarness;
import io.quire.node.view.apply.AppliedTracker;
import io.quire.node.view.apply.ApplyListener;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Routes as unit tests: the production HTTP server ({@link HttpVerticle}: route table, guards,
 * failure rendering, lingering close) over the real services and applier on an in-memory journal,
 * deployed in Vert.x's JUnit 5 extension. No broker, no RocksDB: what a route answers is tested
 * here in milliseconds; the ITs keep the end-to-end paths.
 */
@ExtendWith(VertxExtension.class)
class RoutesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final QuireConfig.Security NO_SECURITY = new QuireConfig.Security("", "", "", "", "", "roles", "subjects",
            false, "", "", "");
    static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"t\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";
    static final String HOLDER = "{\"type\":\"record\",\"name\":\"Holder\",\"namespace\":\"t\","
            + "\"fields\":[{\"name\":\"o\",\"type\":\"t.Order\"}]}";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private RegistryHarness harness;
    private int port;

    record Answer(int status, JsonNode json) {
        int errorCode() {
            return json.path("error_code").asInt(-1);
        }
    }

    @BeforeEach
    void start(Vertx vertx, VertxTestContext ctx) {
        harness = new RegistryHarness();
        HttpApi.Deps deps = new HttpApi.Deps(harness.registry, harness.access, new AppliedTracker(ApplyListener.NONE),
                new QuireMetrics(), new ReadyNode(), NO_ADMIN, Runnable::run, 65_536, 1_000, 1_000, null, false, 409);
        vertx.deployVerticle(new HttpVerticle(deps, "127.0.0.1", 0, NO_SECURITY, bound -> port = bound))
                .onComplete(ctx.succeedingThenComplete());
    }

    Answer send(String method, String path, String body) throws IOException, InterruptedException {
        return send(method, path, body, "application/vnd.schemaregistry.v1+json");
    }

    Answer send(String method, String path, String body, String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", contentType)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body()));
    }

    static String schema(String text, String extra) throws IOException {
        return "{\"schema\":" + JSON.writeValueAsString(text) + extra + "}";
    }

    @Test
    void aRegistrationIsReadBackByIdAndByVersion() throws Exception {
        Answer registered = send("POST", "/subjects/orders-value/versions", schema(ORDER, ""));
        assertEquals(200, registered.status(), registered.json().toString());
        long id = registered.json().get("id").asLong();
        Answer byId = send("GET", "/schemas/ids/" + id, null);
        assertEquals(ORDER, byId.json().get("schema").asText());
        Answer latest = send("GET", "/subjects/orders-value/versions/latest", null);
        assertEquals(1, latest.json().get("version").asInt());
        assertEquals(id, latest.json().get("id").asLong());
        assertEquals(id, send("POST", "/subjects/orders-value/versions", schema(ORDER, "")).json().get("id").asLong(),
                "the same schema again: the same id, no new version");
    }

    @Test
    void aLookupByIdIsAnsweredAlikeBeforeTheRouterAndInIt() throws Exception {
        long id = send("POST", "/subjects/orders-value/versions", schema(ORDER, "")).json().get("id").asLong();
        HttpResponse<String> hot = get("/schemas/ids/" + id); // HotRead
        HttpResponse<String> routed = get("/schemas/ids/" + id + "?format="); // the route's own handler
        assertEquals(routed.statusCode(), hot.statusCode());
        assertEquals(routed.body(), hot.body());
        assertEquals(routed.headers().map(), hot.headers().map());
        HttpResponse<String> missing = get("/schemas/ids/" + (id + 100));
        assertEquals(404, missing.statusCode());
        assertEquals(40403, JSON.readTree(missing.body()).get("error_code").asInt(), "the router's answer");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void refusalsAreConfluentsAndChangeNothing() throws Exception {
        send("POST", "/subjects/base/versions", schema(ORDER, ""));
        assertEquals(200, send("POST", "/subjects/holder/versions", schema(HOLDER,
                ",\"references\":[{\"name\":\"t.Order\",\"subject\":\"base\",\"version\":1}]")).status());
        int before = harness.journal.size();
        Map<String, Integer> expected = new java.util.LinkedHashMap<>();
        expected.put("DELETE /subjects/base/versions/1", 42206);
        expected.put("DELETE /subjects/base", 42206);
        expected.put("DELETE /config/base", 40401);
        expected.put("PATCH /subjects", 405);
        expected.put("GET /no/such/route", 404);
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            String[] request = e.getKey().split(" ");
            Answer a = send(request[0], request[1], request[0].equals("PATCH") ? "{}" : null);
            assertEquals(e.getValue(), a.errorCode(), e.getKey() + ": " + a.json());
        }
        assertEquals(42201, send("POST", "/subjects/base/versions", schema(ORDER.replace("\"id\"", "\"x\""),
                ",\"version\":9")).errorCode(), "a version that is not the next one");
        assertEquals(42201, send("POST", "/compatibility/subjects/base/versions/latest",
                schema(ORDER, ",\"references\":[null]")).errorCode(), "a null reference");
        Answer form = send("POST", "/subjects/base/versions", "a=b", "application/x-www-form-urlencoded");
        assertEquals(415, form.status());
        assertEquals(415, form.errorCode());
        assertEquals(before, harness.journal.size(), "no refusal reached the journal");
        assertTrue(send("GET", "/subjects/base/versions/1", null).json().has("schema"), "still there, live");
    }

    /** No snapshots, region, follower or cut-over in a route test. */
    static final HttpApi.Admin NO_ADMIN = new HttpApi.Admin(() -> {
        throw new UnsupportedOperationException("no snapshots in a route test");
    }, null, null, null);

    /** A node that is ready. */
    static class ReadyNode implements NodeStatus {
        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public String state() {
            return "RUNNING";
        }

        @Override
        public long appliedOffset() {
            return 0;
        }

        @Override
        public boolean journalReachable() {
            return true;
        }

        @Override
        public String kafkaClusterId() {
            return "test-cluster";
        }

        @Override
        public String registryClusterId() {
            return "test-registry";
        }
    }

    /** Confluent's exporters API over the in-memory journal: the codes a client sees, and nothing changed by a refusal. */
    @Test
    void exportersAnswerConfluentsCodes() throws Exception {
        String body = "{\"name\":\"dr\",\"subjects\":[\"orders-*\"],\"contextType\":\"CUSTOM\",\"context\":\"dr\","
                + "\"config\":{\"schema.registry.url\":\"http://127.0.0.1:1\"}}";
        assertEquals("dr", send("POST", "/exporters", body).json().path("name").asText());
        assertEquals(40960, send("POST", "/exporters", body).errorCode());
        Answer noContext = send("POST", "/exporters", "{\"name\":\"x\",\"contextType\":\"CUSTOM\","
                + "\"config\":{\"schema.registry.url\":\"http://b\"}}");
        assertEquals(409, noContext.status());
        assertEquals(40951, noContext.errorCode());
        assertEquals(JSON.readTree("[\"dr\"]"), send("GET", "/exporters", null).json());
        Answer info = send("GET", "/exporters/dr", null);
        assertEquals("CUSTOM", info.json().path("contextType").asText());
        assertEquals("dr", info.json().path("context").asText());
        assertEquals(40963, send("PUT", "/exporters/dr", "{\"subjects\":[\"*\"]}").errorCode());
        assertEquals(200, send("PUT", "/exporters/dr/pause", null).status());
        assertEquals(200, send("PUT", "/exporters/dr", "{\"subjects\":[\"*\"]}").status());
        assertEquals(JSON.readTree("[\"*\"]"), send("GET", "/exporters/dr", null).json().path("subjects"));
        assertEquals("PAUSED", send("GET", "/exporters/dr/status", null).json().path("state").asText());
        Answer missing = send("GET", "/exporters/nope/status", null);
        assertEquals(404, missing.status());
        assertEquals(40450, missing.errorCode());
        assertEquals(200, send("DELETE", "/exporters/dr", null).status());
        assertEquals(40450, send("DELETE", "/exporters/dr", null).errorCode());
    }
    /**
     * A {@code /contexts/{ctx}/…} path is the same resource with its subjects qualified by the
     * context, and a subject with an {@code alias} reads as the subject the alias names (in the
     * aliased subject's context), as Confluent's context and alias filters read them.
     */
    @Test
    void aContextPrefixAndAnAliasNameTheSubjectTheyResolveTo() throws Exception {
        Answer staged = send("POST", "/contexts/.staging/subjects/orders/versions", schema(ORDER, ""));
        assertEquals(200, staged.status(), staged.json().toString());
        long id = staged.json().get("id").asLong();
        assertEquals(id, send("GET", "/subjects/:.staging:orders/versions/1", null).json().path("id").asLong());
        assertEquals(":.staging:orders", send("GET", "/contexts/.staging/subjects/orders/versions/latest", null)
                .json().path("subject").asText());
        assertEquals(JSON.readTree("[\":.staging:orders\"]"), send("GET", "/contexts/.staging/subjects", null).json());
        assertEquals(JSON.readTree("[\":.staging:orders\"]"),
                send("GET", "/contexts/.staging/schemas/ids/" + id + "/subjects", null).json());
        assertEquals(ORDER, send("GET", "/contexts/.staging/schemas/ids/" + id, null).json().path("schema").asText());
        assertEquals(1, send("GET", "/contexts/.staging/schemas", null).json().size());
        assertEquals(true, send("POST", "/contexts/.staging/compatibility/subjects/orders/versions/latest",
                schema(ORDER, "")).json().path("is_compatible").asBoolean());

        // the context's own settings, and a subject's inside it
        assertEquals(200, send("PUT", "/contexts/.staging/config", "{\"compatibility\":\"NONE\"}").status());
        assertEquals("NONE", send("GET", "/config/:.staging:", null).json().path("compatibilityLevel").asText());
        assertEquals("NONE", send("GET", "/contexts/.staging/config", null).json().path("compatibilityLevel").asText());
        assertEquals(200, send("PUT", "/contexts/.staging/config/orders", "{\"compatibility\":\"FULL\"}").status());
        assertEquals("FULL", send("GET", "/config/:.staging:orders", null).json().path("compatibilityLevel").asText());
        assertEquals(200, send("PUT", "/contexts/.staging/mode/orders", "{\"mode\":\"READONLY\"}").status());
        assertEquals("READONLY", send("GET", "/mode/:.staging:orders", null).json().path("mode").asText());
        assertEquals(200, send("DELETE", "/contexts/.staging/mode/orders", null).status());
        assertEquals(200, send("POST", "/contexts/.staging/subjects/:.other:x/versions", schema(ORDER, "")).status());
        assertEquals(":.other:x", send("GET", "/subjects/:.other:x/versions/1", null).json().path("subject").asText(),
                "a subject that names its own context keeps it");
        assertEquals(200, send("PUT", "/contexts/.other/mode", "{\"mode\":\"READONLY\"}").status());
        assertEquals("READONLY", send("GET", "/mode/:.other:", null).json().path("mode").asText());
        assertEquals(200, send("DELETE", "/contexts/.other/mode", null).status(), "the context's own mode, deleted");
        assertEquals(405, send("DELETE", "/contexts/:.:/mode", null).errorCode(), "the registry's mode has no DELETE");

        // aliases: in the path after subjects/, and in the subject parameter of a read by id
        send("POST", "/subjects/real-value/versions", schema(ORDER, ""));
        assertEquals(200, send("PUT", "/config/alias-value", "{\"alias\":\"real-value\"}").status());
        assertEquals("real-value", send("GET", "/subjects/alias-value/versions/latest", null).json().path("subject")
                .asText());
        assertEquals("real-value", send("GET", "/config/alias-value", null).json().path("alias").asText(),
                "the alias's own config is still its own");
        long realId = send("GET", "/subjects/real-value/versions/1", null).json().path("id").asLong();
        assertEquals(ORDER, send("GET", "/schemas/ids/" + realId + "?subject=alias-value", null).json().path("schema")
                .asText());
        assertEquals(200, send("PUT", "/contexts/.staging/config/al", "{\"alias\":\"orders\"}").status());
        assertEquals(":.staging:orders", send("GET", "/contexts/.staging/subjects/al/versions/latest", null).json()
                .path("subject").asText(), "an alias is read in the aliased subject's context");
        assertEquals(":.staging:orders", send("GET", "/subjects/:.staging:al/versions/1", null).json()
                .path("subject").asText());

        // what is refused under a context
        assertEquals(400, send("GET", "/contexts/.a:b/subjects", null).errorCode(), "a colon inside a context name");
        assertEquals(405, send("PATCH", "/contexts/.staging/subjects", "{}").errorCode());
        assertEquals(404, send("GET", "/contexts/.staging/no/such/route", null).errorCode());
        assertEquals(40401, send("GET", "/contexts/.staging/subjects/none/versions", null).errorCode());
    }
}
