package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.quire.node.QuireNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Sign-in through a real identity provider: Keycloak from Maven Central, started from its
 * distribution with the realms of {@code src/test/resources/keycloak}, and a node that knows only
 * its issuer URL (discovery, then its key set). Roles come from Keycloak's realm roles and groups
 * through the node's role mapping; the principal is the provider's user name. Skipped where no
 * JDK 21+ is installed (Keycloak needs one).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeycloakIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final int MIN_FETCH_INTERVAL_S = 4;
    private static Keycloak kc;
    private static QuireNode node;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Keycloak.available(), "Keycloak needs a JDK 21 or newer (/usr/lib/jvm) and its unpacked distribution");
        kc = Keycloak.get();
        Path dir = Files.createTempDirectory("quire-keycloak");
        node = Nodes.start(Nodes.config("keycloak-it", dir, "keycloak-node",
                "--auth-oidc-issuer", kc.issuer("quire"),
                "--auth-jwt-audience", "quire",
                "--auth-jwt-roles-claim", "realm_access.roles,groups",
                "--auth-role-mapping", "team-payments=writer:payments-;schema-readers=reader;platform-admins=admin",
                "--auth-jwt-principal-claim", "preferred_username",
                "--auth-oidc-min-fetch-interval-s", Integer.toString(MIN_FETCH_INTERVAL_S),
                "--auth-clock-skew-s", "1",
                "--auth-oidc-console-client-id", "quire-console"));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static Http as(String token) {
        return new Http(node.httpPort()).as("Bearer " + token);
    }

    private static String schema(String name) {
        return "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"" + name + "\\\",\\\"fields\\\":[]}\"}";
    }

    private static long keyFetches() {
        for (String line : new Http(node.httpPort()).get("/metrics").body().split("\n")) {
            if (line.startsWith("quire_auth_key_fetches_total")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no quire_auth_key_fetches_total in /metrics");
    }

    @Test
    @Order(1)
    void aServiceAccountWritesAndAReaderIsRefusedAWrite() throws Exception {
        String ci = kc.clientToken("quire", "quire-ci", "ci-secret");
        Http.Response who = as(ci).get("/v1/principal");
        JsonNode me = JSON.readTree(who.body());
        assertEquals("service-account-quire-ci", me.path("name").asText(), who.body());
        assertEquals("WRITER", me.path("role").asText());
        assertEquals(200, as(ci).post("/subjects/orders-oidc-value/versions", schema("Order")).status());

        String reader = kc.clientToken("quire", "quire-reader-svc", "reader-secret");
        assertEquals(200, as(reader).get("/subjects/orders-oidc-value/versions/1").status());
        Http.Response refused = as(reader).post("/subjects/orders-oidc-value/versions", schema("Order2"));
        assertEquals(403, refused.status(), refused.body());
        assertEquals(40301, JSON.readTree(refused.body()).path("error_code").asInt());
    }

    @Test
    @Order(2)
    void aUserOfThePaymentsGroupWritesOnlyUnderItsPrefix() throws Exception {
        String alice = kc.userToken("alice", "alice-pw");
        JsonNode me = JSON.readTree(as(alice).get("/v1/principal").body());
        assertEquals("alice", me.path("name").asText());
        assertEquals("WRITER", me.path("role").asText());
        assertEquals(List.of("payments-"), JSON.convertValue(me.path("subjectPrefixes"), List.class));
        assertEquals(200, as(alice).post("/subjects/payments-console-value/versions", schema("Payment")).status());
        assertEquals(403, as(alice).post("/subjects/orders-by-alice-value/versions", schema("Order")).status());
        // the audit trail names the person as the provider knows her
        String ada = kc.userToken("ada", "ada-pw");
        String audit = as(ada).get("/audit?subject=payments-console-value").body();
        assertTrue(audit.contains("\"alice\""), audit);
    }

    @Test
    @Order(3)
    void confluentsNodeClientFetchesItsOwnTokenAndRegisters() throws Exception {
        Path dir = ConfluentClientIT.jsClient();
        int rc = ConfluentClientIT.run(dir, 120, "node", "oidc.cjs", "http://127.0.0.1:" + node.httpPort(),
                kc.tokenEndpoint("quire"), "quire-ci", "ci-secret", "orders-from-node-value");
        String out = Files.readString(dir.resolve("run.log"));
        assertEquals(0, rc, out);
        assertTrue(out.contains("REGISTERED"), out);
        String ada = kc.userToken("ada", "ada-pw");
        assertTrue(as(ada).get("/audit?subject=orders-from-node-value").body().contains("service-account-quire-ci"));
    }

    @Test
    @Order(4)
    void keysRotatedInKeycloakAreTakenWithoutARestartAndOldTokensStayValid() throws Exception {
        String before = kc.clientToken("quire", "quire-ci", "ci-secret"); // signed by the old key, not yet shown to the node
        Thread.sleep(MIN_FETCH_INTERVAL_S * 1000L + 500); // out of any earlier fetch's interval
        long fetches = keyFetches();
        kc.rotateKeys("quire");
        String after = kc.clientToken("quire", "quire-ci", "ci-secret");
        assertNotEquals(kid(before), kid(after), "Keycloak signs with the new key");
        long t0 = System.nanoTime();
        assertEquals(200, as(after).get("/subjects").status(), "a token of the new key, accepted without a restart");
        long withFetch = System.nanoTime() - t0;
        String again = kc.clientToken("quire", "quire-ci", "ci-secret"); // a new token, the same (now kept) key
        t0 = System.nanoTime();
        assertEquals(200, as(again).get("/subjects").status());
        long kept = System.nanoTime() - t0;
        System.out.printf("first token of a rotated key: %.1f ms (key set fetched); next new token: %.1f ms%n",
                withFetch / 1e6, kept / 1e6);
        assertEquals(200, as(after).post("/subjects/orders-rotated-value/versions", schema("Rotated")).status());
        assertEquals(fetches + 1, keyFetches(), "one fetch of the key set for the new kid");
        assertEquals(200, as(before).get("/subjects/orders-rotated-value/versions/1").status(),
                "a token of the old key stays valid until it expires");
        assertEquals(fetches + 1, keyFetches());
    }

    @Test
    @Order(5)
    void expiredForeignUnsignedAndForgedTokensAreRefusedWithoutHammeringTheProvider() throws Exception {
        Http anonymous = new Http(node.httpPort());
        String valid = kc.clientToken("quire", "quire-ci", "ci-secret");
        assertEquals(200, as(valid).get("/subjects").status());

        // expired: quire-short's tokens live 3 s; the node allows 1 s of skew
        String shortLived = kc.clientToken("quire", "quire-short", "short-secret");
        assertEquals(200, as(shortLived).get("/subjects").status());
        Thread.sleep(5_000);
        assertEquals(401, as(shortLived).get("/subjects").status(), "expired");

        // another realm of the same Keycloak: another issuer
        String foreign = kc.clientToken("other", "other-ci", "other-secret");
        assertEquals(401, as(foreign).get("/subjects").status(), "another realm");

        // alg none, with the real token's kid and claims
        String[] parts = valid.split("\\.");
        String noneHeader = b64("{\"alg\":\"none\",\"typ\":\"JWT\",\"kid\":\"" + kid(valid) + "\"}");
        assertEquals(401, as(noneHeader + "." + parts[1] + ".").get("/subjects").status(), "alg none");

        // HMAC keyed with the provider's public key (the classic confusion): never HMAC
        JWTClaimsSet claims = JWTClaimsSet.parse(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
        SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid(valid)).build(), claims);
        hmac.sign(new MACSigner(Keycloak.class.getName().repeat(4).getBytes(StandardCharsets.UTF_8)));
        assertEquals(401, as(hmac.serialize()).get("/subjects").status(), "HMAC");

        // forged kids: a key of our own, valid-looking claims, a kid the provider never published
        Thread.sleep(MIN_FETCH_INTERVAL_S * 1000L + 500);
        long fetches = keyFetches();
        RSAKey forger = new RSAKeyGenerator(2048).generate();
        for (int i = 0; i < 25; i++) {
            JWTClaimsSet forgedClaims = new JWTClaimsSet.Builder(claims).expirationTime(new Date(System.currentTimeMillis() + 60_000))
                    .jwtID("forged-" + i).build();
            SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT)
                    .keyID("forged-kid-" + i).build(), forgedClaims);
            forged.sign(new RSASSASigner(forger));
            assertEquals(401, as(forged.serialize()).get("/subjects").status(), "forged kid " + i);
        }
        long during = keyFetches() - fetches;
        assertTrue(during <= 1, "25 forged kids made " + during + " key-set fetches within one interval");
        assertEquals(401, anonymous.get("/subjects").status());
        assertEquals(200, as(valid).get("/subjects").status(), "the real token still works");
    }

    @Test
    @Order(6)
    void theConsoleSignsInThroughKeycloak() throws Exception {
        Path dir = ConsoleIT.browserScripts("console-oidc.cjs");
        int rc = ConfluentClientIT.run(dir, 120, "node", "console-oidc.cjs", "http://127.0.0.1:" + node.httpPort(),
                "alice", "alice-pw", "writer");
        String out = Files.readString(dir.resolve("run.log"));
        System.out.println(out);
        assertEquals(0, rc, out);
        assertTrue(out.contains("ALL OK"), out);
    }

    private static String kid(String token) throws Exception {
        return SignedJWT.parse(token).getHeader().getKeyID();
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
