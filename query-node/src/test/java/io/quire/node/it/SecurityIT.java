package io.quire.node.it;

import static io.quire.node.it.Http.basic;
import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import io.quire.node.ops.AuditCommand;
import io.quire.node.security.Role;
import io.quire.node.security.UsersFile;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Authentication on, over HTTPS: Basic users with bcrypt hashes, HMAC-signed bearer tokens, the
 * three roles on every kind of endpoint, subject-prefix scopes, and the audit trail.
 */
class SecurityIT {

    static final String SECRET = "a-test-secret-that-is-long-enough-for-hs256";
    static final String NAME = "{\"name\":\"name\",\"type\":\"string\"}";

    static QuireNode node;
    static Http https;
    static Vertx vertx;
    static JWTAuth signer;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("quire-security-it");
        Path users = dir.resolve("users");
        Files.writeString(users, String.join("\n",
                "# name:hash:role[:prefixes]",
                "reader:" + UsersFile.hash("readerpw".toCharArray(), 4) + ":reader",
                "writer:" + UsersFile.hash("writerpw".toCharArray(), 4) + ":writer",
                "admin:" + UsersFile.hash("adminpw".toCharArray(), 4) + ":admin",
                "ci:" + UsersFile.hash("cipw".toCharArray(), 4) + ":writer:orders-,billing-"));
        Path secret = dir.resolve("jwt-secret");
        Files.writeString(secret, SECRET);
        TestCertificates certs = TestCertificates.create(dir);
        node = Nodes.start(Nodes.config("security-it", dir.resolve("data"), "secure-node",
                "--auth-users-file", users.toString(), "--auth-jwt-hmac-secret-file", secret.toString(),
                "--auth-jwt-issuer", "quire-test", "--auth-jwt-audience", "quire",
                "--tls-cert-file", certs.certPem.toString(), "--tls-key-file", certs.keyPem.toString()));
        https = new Http(HttpClient.newBuilder().sslContext(certs.clientContext).connectTimeout(Duration.ofSeconds(5))
                .build(), "https://127.0.0.1:" + node.httpPort(), null);
        vertx = Vertx.vertx();
        signer = JWTAuth.create(vertx, new JWTAuthOptions().addPubSecKey(
                new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(Buffer.buffer(SECRET))));
    }

    @AfterAll
    static void stop() {
        node.close();
        vertx.close();
    }

    static String token(JsonObject claims, String issuer, String audience, int expiresInSeconds) {
        JWTOptions o = new JWTOptions().setAlgorithm("HS256").setIssuer(issuer).setAudience(List.of(audience));
        if (expiresInSeconds != 0) {
            o.setExpiresInSeconds(expiresInSeconds);
        }
        return "Bearer " + signer.generateToken(claims, o);
    }

    record Call(String method, String path, String body, Role needs) {
    }

    static final List<Call> CALLS = List.of(
            new Call("GET", "/subjects", null, Role.READER),
            new Call("GET", "/schemas/ids/1", null, Role.READER),
            new Call("GET", "/schemas/types", null, Role.READER),
            new Call("POST", "/subjects/orders-matrix", schemaBody(record("M", NAME)), Role.READER),
            new Call("GET", "/subjects/orders-matrix/versions", null, Role.READER),
            new Call("GET", "/config", null, Role.READER),
            new Call("GET", "/mode", null, Role.READER),
            new Call("POST", "/subjects/orders-matrix/versions", schemaBody(record("M", NAME)), Role.WRITER),
            new Call("POST", "/compatibility/subjects/orders-matrix/versions", schemaBody(record("M", NAME)),
                    Role.WRITER),
            new Call("DELETE", "/subjects/orders-none", null, Role.WRITER),
            new Call("DELETE", "/subjects/orders-none?permanent=true", null, Role.ADMIN),
            new Call("DELETE", "/subjects/orders-none/versions/1?permanent=true", null, Role.ADMIN),
            new Call("PUT", "/config", "{\"compatibility\":\"BACKWARD\"}", Role.ADMIN),
            new Call("PUT", "/config/orders-matrix", "{\"compatibility\":\"BACKWARD\"}", Role.ADMIN),
            new Call("PUT", "/mode/orders-matrix", "{\"mode\":\"READWRITE\"}", Role.ADMIN),
            new Call("GET", "/admin/position", null, Role.ADMIN),
            new Call("GET", "/audit", null, Role.ADMIN),
            new Call("GET", "/dek-registry/v1/keks", null, Role.READER),
            new Call("POST", "/dek-registry/v1/keks", "{\"name\":\"matrix\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"k\"}",
                    Role.WRITER),
            new Call("GET", "/dek-registry/v1/keks/matrix", null, Role.READER),
            new Call("PUT", "/dek-registry/v1/keks/matrix", "{\"doc\":\"d\"}", Role.WRITER),
            new Call("GET", "/dek-registry/v1/keks/matrix/deks", null, Role.READER),
            new Call("POST", "/dek-registry/v1/keks/matrix/deks", "{\"subject\":\"orders-matrix\",\"encryptedKeyMaterial\":\"eA==\"}",
                    Role.WRITER),
            new Call("POST", "/dek-registry/v1/keks/matrix/deks/orders-matrix", "{\"version\":2,\"encryptedKeyMaterial\":\"eA==\"}",
                    Role.WRITER),
            new Call("GET", "/dek-registry/v1/keks/matrix/deks/orders-matrix", null, Role.READER),
            new Call("GET", "/dek-registry/v1/keks/matrix/deks/orders-matrix/versions", null, Role.READER),
            new Call("GET", "/dek-registry/v1/keks/matrix/deks/orders-matrix/versions/1", null, Role.READER),
            new Call("DELETE", "/dek-registry/v1/keks/matrix/deks/orders-matrix/versions/1", null, Role.WRITER),
            new Call("POST", "/dek-registry/v1/keks/matrix/deks/orders-matrix/versions/1/undelete", null, Role.WRITER),
            new Call("DELETE", "/dek-registry/v1/keks/matrix/deks/orders-matrix", null, Role.WRITER),
            new Call("POST", "/dek-registry/v1/keks/matrix/deks/orders-matrix/undelete", null, Role.WRITER),
            new Call("DELETE", "/dek-registry/v1/keks/matrix/deks/orders-matrix?permanent=true", null, Role.ADMIN),
            new Call("DELETE", "/dek-registry/v1/keks/matrix", null, Role.WRITER),
            new Call("POST", "/dek-registry/v1/keks/matrix/undelete", null, Role.WRITER),
            new Call("DELETE", "/dek-registry/v1/keks/matrix?permanent=true", null, Role.ADMIN));

    @Test
    void withoutCredentialsOnlyTheOpenEndpointsAnswer() {
        for (Call c : CALLS) {
            Http.Response r = https.send(c.method(), c.path(), c.body());
            assertEquals(401, r.status(), c.method() + " " + c.path());
            assertEquals(40101, r.errorCode());
        }
        for (String open : List.of("/", "/health/live", "/health/ready", "/metrics")) {
            assertEquals(200, https.get(open).status(), open);
        }
        assertEquals(401, https.as(basic("admin", "wrong")).get("/subjects").status());
        assertEquals(401, https.as(basic("nobody", "adminpw")).get("/subjects").status());
        assertEquals(401, https.as("Digest abc").get("/subjects").status());
    }

    @Test
    void everyRoleReachesExactlyTheEndpointsItShould() {
        Map<Role, String> users = Map.of(Role.READER, basic("reader", "readerpw"), Role.WRITER,
                basic("writer", "writerpw"), Role.ADMIN, basic("admin", "adminpw"));
        for (Map.Entry<Role, String> u : users.entrySet()) {
            for (Call c : CALLS) {
                Http.Response r = https.as(u.getValue()).send(c.method(), c.path(), c.body());
                String what = u.getKey() + " " + c.method() + " " + c.path() + " -> " + r.body();
                if (u.getKey().includes(c.needs())) {
                    assertNotEquals(401, r.status(), what);
                    assertNotEquals(403, r.status(), what);
                } else {
                    assertEquals(403, r.status(), what);
                    assertEquals(40301, r.errorCode(), what);
                }
            }
        }
    }

    @Test
    void aReaderCannotRegisterAndAWriterCannotChangeGlobalConfig() {
        assertEquals(403, https.as(basic("reader", "readerpw")).post("/subjects/orders-r/versions",
                schemaBody(record("R", NAME))).status());
        assertEquals(403, https.as(basic("writer", "writerpw")).put("/config", "{\"compatibility\":\"NONE\"}").status());
        assertEquals("BACKWARD", https.as(basic("reader", "readerpw")).get("/config").json()
                .get("compatibilityLevel").asText());
    }

    /** A change set needs, for every subject it names, the role that subject's own route needs. */
    @Test
    void aChangeSetIsCheckedForEverySubjectAndStep() {
        String set = "{\"steps\":[{\"subject\":\"orders-cs\",\"register\":{\"schema\":\"\\\"string\\\"\"}},"
                + "{\"subject\":\"%s\",%s}]}";
        String register = "\"register\":{\"schema\":\"\\\"long\\\"\"}";
        Http ci = https.as(basic("ci", "cipw"));
        Http.Response other = ci.post("/changesets", String.format(set, "payments-cs", register));
        assertEquals(403, other.status(), "not its prefix: " + other.body());
        assertTrue(other.body().contains("payments-cs"), other.body());
        Http.Response config = https.as(basic("writer", "writerpw")).post("/changesets",
                String.format(set, "billing-cs", "\"config\":{\"compatibility\":\"NONE\"}"));
        assertEquals(403, config.status(), "a config step is an admin's: " + config.body());
        Http.Response deleteConfig = https.as(basic("writer", "writerpw")).post("/changesets",
                String.format(set, "billing-cs", "\"deleteConfig\":true"));
        assertEquals(403, deleteConfig.status(), "so is removing a config: " + deleteConfig.body());
        assertEquals(404, https.as(basic("reader", "readerpw")).get("/subjects/orders-cs/versions").status(),
                "nothing landed");
        assertEquals(403, https.as(basic("reader", "readerpw")).post("/changesets",
                String.format(set, "billing-cs", register)).status());
        assertEquals(405, https.as(basic("reader", "readerpw")).get("/changesets").status(),
                "the route is there for anyone who asks without a body (how a client tells a Quire node)");
        assertEquals(405, ci.get("/changesets").status());
        assertEquals(200, ci.post("/changesets", String.format(set, "billing-cs", register)).status());
        assertEquals(200, https.as(basic("admin", "adminpw")).post("/changesets",
                String.format(set, "payments-cs", "\"config\":{\"compatibility\":\"NONE\"}")).status());
        Http admin = https.as(basic("admin", "adminpw"));
        assertEquals("NONE", admin.get("/config/payments-cs").json().path("compatibilityLevel").asText());
        Http.Response cleared = admin.post("/changesets", "{\"steps\":[{\"subject\":\"payments-cs\",\"deleteConfig\":true}]}");
        assertEquals(200, cleared.status(), cleared.body());
        assertEquals(40408, admin.get("/config/payments-cs").errorCode(), "the subject's own level is gone");
        Http.Response both = admin.post("/changesets", "{\"steps\":[{\"subject\":\"payments-cs\",\"deleteConfig\":true,"
                + "\"config\":{\"compatibility\":\"FULL\"}}]}");
        assertEquals(422, both.status(), "one kind per step: " + both.body());
    }

    @Test
    void aScopedUserOnlyTouchesItsSubjectPrefixes() {
        Http ci = https.as(basic("ci", "cipw"));
        assertEquals(200, ci.post("/subjects/orders-scoped/versions", schemaBody(record("S", NAME))).status());
        assertEquals(200, https.as(basic("writer", "writerpw")).post("/subjects/payments-scoped/versions",
                schemaBody(record("P", NAME))).status());
        Http.Response refused = ci.post("/subjects/payments-scoped/versions", schemaBody(record("P2", NAME)));
        assertEquals(403, refused.status());
        assertEquals(403, ci.get("/subjects/payments-scoped/versions").status());
        String visible = ci.get("/subjects").body();
        assertTrue(visible.contains("orders-scoped"), visible);
        assertFalse(visible.contains("payments-scoped"), visible);

        String association = "{\"resourceName\":\"scoped\",\"resourceNamespace\":\"lkc\",\"resourceId\":\"t-%s\","
                + "\"associations\":[{\"subject\":\"%s\",\"associationType\":\"value\"}]}";
        assertEquals(403, ci.post("/associations", String.format(association, "p", "payments-scoped")).status(),
                "not its subject");
        assertEquals(200, ci.post("/associations", String.format(association, "o", "orders-scoped")).status());
        assertEquals(200, https.as(basic("writer", "writerpw")).post("/associations",
                String.format(association, "p", "payments-scoped")).status());
        String seen = ci.get("/associations/resources/-/scoped").body();
        assertTrue(seen.contains("orders-scoped") && !seen.contains("payments-scoped"), seen);
        assertEquals(403, ci.post("/associations:batchMutate", "{\"requests\":[{\"resourceId\":\"t-q\","
                + "\"resourceName\":\"q\",\"resourceNamespace\":\"lkc\",\"associations\":[{\"opType\":\"CREATE\","
                + "\"subject\":\"payments-scoped\",\"lifecycle\":\"WEAK\"}]}]}").status(), "a batch names subjects too");
        assertEquals(403, ci.delete("/associations/resources/t-o?cascadeLifecycle=true").status(),
                "deleting subjects permanently through an association is an admin's");
        assertEquals(403, ci.get("/subjects/:.other:orders-scoped/versions").status(),
                "a prefix covers the context too");
        Http writer = https.as(basic("writer", "writerpw"));
        assertEquals(200, writer.post("/dek-registry/v1/keks", "{\"name\":\"scoped\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"k\"}")
                .status());
        for (String subject : List.of("orders-scoped", "payments-scoped")) {
            assertEquals(200, writer.post("/dek-registry/v1/keks/scoped/deks/" + subject, "{\"encryptedKeyMaterial\":\"eA==\"}").status());
        }
        assertEquals(200, ci.get("/dek-registry/v1/keks/scoped/deks/orders-scoped").status());
        assertEquals(403, ci.get("/dek-registry/v1/keks/scoped/deks/payments-scoped").status(), "not its subject's key");
        assertEquals(403, ci.post("/dek-registry/v1/keks/scoped/deks/payments-scoped", "{\"version\":2,\"encryptedKeyMaterial\":\"eA==\"}")
                .status());
        assertEquals("[\"orders-scoped\"]", ci.get("/dek-registry/v1/keks/scoped/deks").body(), "it lists only its subjects' keys");
    }

    @Test
    void bearerTokensAreCheckedForSignatureExpiryIssuerAndAudience() {
        JsonObject claims = new JsonObject().put("sub", "pipeline").put("roles", new JsonArray().add("writer"));
        Http good = https.as(token(claims, "quire-test", "quire", 60));
        assertEquals(200, good.post("/subjects/jwt-value/versions", schemaBody(record("J", NAME))).status());
        assertEquals(403, good.put("/config", "{\"compatibility\":\"NONE\"}").status());

        assertEquals(401, https.as(token(claims, "someone-else", "quire", 60)).get("/subjects").status(), "issuer");
        assertEquals(401, https.as(token(claims, "quire-test", "other", 60)).get("/subjects").status(), "audience");
        JsonObject expired = claims.copy().put("exp", System.currentTimeMillis() / 1000 - 3600);
        assertEquals(401, https.as(token(expired, "quire-test", "quire", 0)).get("/subjects").status(), "expiry");
        String tampered = token(claims.copy().put("roles", new JsonArray().add("admin")), "quire-test", "quire", 60);
        String[] parts = tampered.substring("Bearer ".length()).split("\\.");
        String[] honest = token(claims, "quire-test", "quire", 60).substring("Bearer ".length()).split("\\.");
        assertEquals(401, https.as("Bearer " + parts[0] + "." + parts[1] + "." + honest[2]).get("/subjects").status(),
                "a payload with another token's signature");
        assertEquals(401, https.as(token(new JsonObject().put("sub", "x"), "quire-test", "quire", 60))
                .get("/subjects").status(), "no role claim");
    }

    @Test
    void everyDecisionIsInTheAuditTrailWithItsPrincipal() throws Exception {
        Http writer = https.as(basic("writer", "writerpw"));
        assertEquals(200, writer.post("/subjects/audited-value/versions", schemaBody(record("A", NAME))).status());
        Http admin = https.as(basic("admin", "adminpw"));
        assertEquals(200, admin.put("/config/audited-value", "{\"compatibility\":\"FULL\"}").status());
        assertEquals(40401, admin.delete("/subjects/audited-missing").errorCode());

        JsonNode trail = admin.get("/audit?subject=audited-value").json();
        assertEquals(2, trail.size(), trail.toString());
        assertEquals("writer", trail.get(0).get("principal").asText());
        assertEquals("RegisterSchema", trail.get(0).get("command").asText());
        assertEquals("SchemaRegistered", trail.get(0).get("outcome").asText());
        assertEquals("admin", trail.get(1).get("principal").asText());
        assertEquals("SetConfig", trail.get(1).get("command").asText());
        assertEquals("[]", admin.get("/audit?subject=audited-missing").body(),
                "a request refused at the edge never reached the journal");
        assertTrue(admin.get("/audit?principal=writer&limit=1").json().size() == 1);
        long registered = trail.get(0).get("timestamp").asLong();
        assertEquals(trail, admin.get("/audit?subject=audited-value&from=" + registered).json(),
                "from= the first entry's time: the same entries, the scan seeking near that time");
        assertEquals("[]", admin.get("/audit?subject=audited-value&from=" + (System.currentTimeMillis() + 3_600_000))
                .body(), "from= an hour ahead: nothing");
        assertEquals("[]", admin.get("/audit?subject=audited-value&to=" + (registered - 3_600_000)).body(),
                "to= an hour before the first entry: nothing");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, AuditCommand.run(new String[] {"--bootstrap-servers", SharedKafka.bootstrapServers(),
            "--journal-topic", "security-it", "--subject", "audited-value"}, new PrintStream(out, true,
                StandardCharsets.UTF_8)));
        String lines = out.toString(StandardCharsets.UTF_8);
        assertEquals(2, lines.strip().split("\n").length, lines);
        assertTrue(lines.contains("\"principal\":\"writer\""), lines);
    }

    @Test
    void plainHttpIsNotServedWhenTlsIsOn() {
        Http plain = new Http(node.httpPort());
        assertThrows(RuntimeException.class, () -> plain.get("/health/live"));
    }
}
