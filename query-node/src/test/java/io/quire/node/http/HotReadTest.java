package io.quire.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
import io.quire.node.config.QuireConfig;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.security.Authenticator;
import io.quire.node.security.UsersFile;
import io.quire.node.service.RegistryHarness;
import io.quire.node.view.apply.AppliedTracker;
import io.quire.node.view.apply.ApplyListener;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Which requests {@link HotRead} answers before the router, over a real HTTP server and the real
 * services on an in-memory journal: behind it stands a router that answers every request with 299,
 * so each answer says which of the two took the request. {@code RoutesTest} checks that the two
 * answer a lookup alike.
 */
@ExtendWith(VertxExtension.class)
class HotReadTest {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private RegistryHarness harness;
    private QuireMetrics metrics;
    private long id;
    private int port;

    @BeforeEach
    void start(Vertx vertx, VertxTestContext ctx) throws Exception {
        harness = new RegistryHarness();
        id = harness.register("hot-value", "{\"type\":\"record\",\"name\":\"Hot\",\"fields\":[]}");
        metrics = new QuireMetrics();
        HttpApi.Deps deps = deps(new RoutesTest.ReadyNode() {
            @Override
            public boolean stopping() {
                return stopping.get();
            }
        }, null);
        Router routed = Router.router(vertx);
        routed.route().handler(c -> c.response().setStatusCode(299).end("routed"));
        vertx.createHttpServer().requestHandler(HttpApi.guarded(routed, deps)).listen(0, "127.0.0.1")
                .map(HttpServer::actualPort).onComplete(ctx.succeeding(p -> {
                    port = p;
                    ctx.completeNow();
                }));
    }

    private HttpApi.Deps deps(NodeStatus status, Authenticator authenticator) {
        return new HttpApi.Deps(harness.registry, harness.access, new AppliedTracker(ApplyListener.NONE), metrics, status,
                RoutesTest.NO_ADMIN, Runnable::run, 65_536, 1_000, 1_000, authenticator, false, 409);
    }

    private HttpResponse<String> send(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private int status(String path, String... headers) throws Exception {
        return send("GET", path, null, headers).statusCode();
    }

    @Test
    void aPlainLookupOfAStoredIdIsAnsweredFromTheView() throws Exception {
        HttpResponse<String> r = send("GET", "/schemas/ids/" + id, null);
        assertEquals(200, r.statusCode());
        byte[] stored = harness.access.view().schemaBytes(Context.DEFAULT, SchemaId.of(id));
        assertEquals(new String(stored, StandardCharsets.UTF_8), r.body());
        assertEquals(ApiJson.CONTENT_TYPE, r.headers().firstValue("Content-Type").orElse(""));
        assertEquals(200, status("/schemas/ids/000" + id), "leading zeros: the id the router reads too");
        assertEquals(2, metrics.httpTimer("GET", HotRead.ROUTE, 200).count(), "counted under the route's timer");
    }

    @Test
    void everythingElseGoesToTheRouter() throws Exception {
        assertEquals(299, status("/schemas/ids/" + (id + 1000)), "an id the view does not hold: the router's 40403");
        assertEquals(299, status("/schemas/ids/" + id + "?format=resolved"), "a query");
        assertEquals(299, status("/schemas/ids/" + id + "?"), "an empty query");
        assertEquals(299, status("/schemas/ids/" + id + "/"));
        assertEquals(299, status("/schemas/ids/" + id + "/schema"));
        assertEquals(299, status("/schemas/ids/"));
        assertEquals(299, status("/schemas/ids/-" + id));
        assertEquals(299, status("/schemas/ids/1234567890123456789"), "past a long's digits");
        assertEquals(299, status("/contexts/.x/schemas/ids/" + id), "a named context");
        assertEquals(299, status("/schemas/ids/" + id, ReadYourWrites.HEADER, "0"), "read-your-writes waits in the router");
        assertEquals(299, send("GET", "/schemas/ids/" + id, "{}").statusCode(), "a body");
        assertEquals(299, send("HEAD", "/schemas/ids/" + id, null).statusCode());
        assertEquals(299, send("POST", "/schemas/ids/" + id, "{}").statusCode());
        stopping.set(true);
        assertEquals(299, status("/schemas/ids/" + id), "a node stopping closes connections in the router");
        stopping.set(false);
        harness.access.close();
        assertEquals(299, status("/schemas/ids/" + id), "a view not open: the router's gate waits for it");
    }

    @Test
    void aNodeWithSignInHasNoFastPath(Vertx vertx) throws Exception {
        Path users = Files.createTempFile("quire-users", "");
        Files.writeString(users, "ops:" + UsersFile.hash("s3cret".toCharArray(), 4) + ":reader:\n");
        Authenticator auth = Authenticator.create(vertx, new QuireConfig.Security(users.toString(), "", "", "", "",
                "roles", "subjects", false, "", "", ""), Runnable::run);
        assertNull(HotRead.of(deps(new RoutesTest.ReadyNode(), auth)), "every caller is checked by the router");
        assertNotNull(HotRead.of(deps(new RoutesTest.ReadyNode(), null)));
    }

    @Test
    void idsAreDigitsAfterTheRoutesPrefix() {
        assertEquals(42, HotRead.id("/schemas/ids/42"));
        assertEquals(7, HotRead.id("/schemas/ids/007"));
        assertEquals(-1, HotRead.id("/schemas/ids/4 2"));
        assertEquals(-1, HotRead.id("/schemas/ids/+42"));
        assertEquals(-1, HotRead.id("/schemas/idsx/42"));
        assertEquals(-1, HotRead.id(null));
        assertEquals(999_999_999_999_999_999L, HotRead.id("/schemas/ids/999999999999999999"));
    }
}
