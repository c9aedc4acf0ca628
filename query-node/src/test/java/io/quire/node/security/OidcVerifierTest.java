package io.quire.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The verifier against a provider served over HTTP from this test (the JDK's HTTP server, a
 * discovery document and a key set of our keys): the four signature algorithms, the last good key
 * set kept while the provider fails, and what a token check costs on a kept key set. Keycloak's
 * own behaviour is KeycloakIT's.
 */
class OidcVerifierTest {

    private HttpServer server;
    private String issuer;
    private final AtomicBoolean down = new AtomicBoolean();
    private RSAKey rsa;
    private ECKey ec;
    private OctetKeyPair ed;

    @BeforeEach
    void provider() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        ed = new OctetKeyPairGenerator(Curve.Ed25519).keyID("ed-1").generate();
        String jwks = new JWKSet(List.<JWK>of(rsa.toPublicJWK(), ec.toPublicJWK(), ed.toPublicJWK())).toString();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
        server.createContext("/realms/test/.well-known/openid-configuration", x -> reply(x,
                "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/certs\"}"));
        server.createContext("/realms/test/certs", x -> reply(x, jwks));
        server.start();
    }

    private void reply(com.sun.net.httpserver.HttpExchange x, String body) throws java.io.IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(down.get() ? 503 : 200, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String token(JWSAlgorithm alg, String kid, JWSSigner signer) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(kid).build(), new JWTClaimsSet.Builder()
                .issuer(issuer).subject("svc").audience("quire").expirationTime(new Date(System.currentTimeMillis() + 60_000))
                .claim("roles", List.of("writer")).build());
        jwt.sign(signer);
        return jwt.serialize();
    }

    @Test
    void rs256Ps256Es256AndEdDsaAreAcceptedAndAnotherAudienceIsNot() throws Exception {
        OidcVerifier v = new OidcVerifier(issuer, "quire", 300, 0, 5);
        assertEquals("svc", v.verify(token(JWSAlgorithm.RS256, "rsa-1", new RSASSASigner(rsa))).get("sub"));
        assertEquals("svc", v.verify(token(JWSAlgorithm.PS256, "rsa-1", new RSASSASigner(rsa))).get("sub"));
        assertEquals("svc", v.verify(token(JWSAlgorithm.ES256, "ec-1", new ECDSASigner(ec))).get("sub"));
        assertEquals("svc", v.verify(token(JWSAlgorithm.EdDSA, "ed-1", new Ed25519Signer(ed))).get("sub"));
        OidcVerifier other = new OidcVerifier(issuer, "billing", 300, 0, 5);
        assertThrows(OidcVerifier.InvalidTokenException.class,
                () -> other.verify(token(JWSAlgorithm.RS256, "rsa-1", new RSASSASigner(rsa))));
    }

    @Test
    void theLastGoodKeySetServesWhileTheProviderIsDown() throws Exception {
        OidcVerifier v = new OidcVerifier(issuer, "quire", 1, 0, 5); // the set is stale after 1 s
        String t = token(JWSAlgorithm.RS256, "rsa-1", new RSASSASigner(rsa));
        v.verify(t);
        down.set(true);
        Thread.sleep(1_500);
        assertEquals("svc", v.verify(t).get("sub"), "stale keys beat no keys");
        long fetches = v.keyFetches();
        org.junit.jupiter.api.Assertions.assertTrue(fetches >= 2, "it did try the provider again: " + fetches);
    }

    @Test
    void aCheckOnAKeptKeySetCostsMicroseconds() throws Exception {
        OidcVerifier v = new OidcVerifier(issuer, "quire", 300, 30, 5);
        String rs = token(JWSAlgorithm.RS256, "rsa-1", new RSASSASigner(rsa));
        String es = token(JWSAlgorithm.ES256, "ec-1", new ECDSASigner(ec));
        for (String[] c : new String[][]{{"RS256", rs}, {"ES256", es}}) {
            for (int i = 0; i < 500; i++) {
                v.verify(c[1]); // warm up
            }
            int n = 0;
            long t0 = System.nanoTime();
            long end = t0 + 1_000_000_000L; // one second each
            while (System.nanoTime() < end) {
                v.verify(c[1]);
                n++;
            }
            double perSecond = n / ((System.nanoTime() - t0) / 1e9);
            System.out.printf("OIDC token checks on a kept key set, %s, one thread: %.0f/s%n", c[0], perSecond);
        }
        assertEquals(1, v.keyFetches(), "one fetch for all of them");
    }
}
