package io.quire.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** RS256 bearer tokens and Basic credentials, without a broker or an HTTP server. */
class AuthenticatorTest {

    final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close();
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    static QuireConfig.Security security(String users, String publicKey) {
        return new QuireConfig.Security(users, publicKey, "", "issuer-1", "", "roles", "subjects", false, "", "", "");
    }

    @Test
    void rs256TokensSignedWithTheMatchingKeyAuthenticate() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair trusted = g.generateKeyPair();
        KeyPair other = g.generateKeyPair();
        Path pub = Files.createTempFile("quire-jwt", ".pem");
        Files.writeString(pub, pem("PUBLIC KEY", trusted.getPublic().getEncoded()));
        Authenticator auth = Authenticator.create(vertx, security("", pub.toString()), Runnable::run);

        JsonObject claims = new JsonObject().put("sub", "deployer").put("roles", new JsonArray().add("reader").add("admin"))
                .put("subjects", new JsonArray().add("team-a-"));
        Caller p = auth.authenticate("Bearer " + sign(trusted, claims, "issuer-1")).get(10, TimeUnit.SECONDS);
        assertEquals("deployer", p.name());
        assertEquals(Role.ADMIN, p.role(), "the highest role the token grants");
        assertEquals(List.of("team-a-"), p.subjectPrefixes());

        assertUnauthorized(auth, "Bearer " + sign(other, claims, "issuer-1"));
        assertUnauthorized(auth, "Bearer " + sign(trusted, claims, "issuer-2"));
        assertUnauthorized(auth, "Bearer not.a.token");
        assertUnauthorized(auth, "Basic dXNlcjpwdw=="); // no users file configured
    }

    @Test
    void basicCredentialsAreCheckedAgainstBcryptHashes() throws Exception {
        Path users = Files.createTempFile("quire-users", "");
        Files.writeString(users, "ops:" + UsersFile.hash("s3cret".toCharArray(), 4) + ":writer:orders-\n");
        Authenticator auth = Authenticator.create(vertx, security(users.toString(), ""), Runnable::run);
        String good = "Basic " + Base64.getEncoder().encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8));
        Caller p = auth.authenticate(good).get(10, TimeUnit.SECONDS);
        assertEquals(Role.WRITER, p.role());
        assertTrue(p.mayTouch("orders-value"));
        assertTrue(!p.mayTouch("payments-value"));
        assertEquals(p, auth.authenticate(good).get(10, TimeUnit.SECONDS), "a remembered check gives the same answer");
        assertUnauthorized(auth, "Basic " + Base64.getEncoder().encodeToString("ops:wrong".getBytes(StandardCharsets.UTF_8)));
        assertUnauthorized(auth, "Basic ***");
        assertUnauthorized(auth, null);
    }

    String sign(KeyPair keys, JsonObject claims, String issuer) {
        JWTAuth signer = JWTAuth.create(vertx, new JWTAuthOptions().addPubSecKey(new PubSecKeyOptions()
                .setAlgorithm("RS256").setBuffer(Buffer.buffer(pem("PRIVATE KEY", keys.getPrivate().getEncoded())))));
        return signer.generateToken(claims, new JWTOptions().setAlgorithm("RS256").setIssuer(issuer)
                .setExpiresInSeconds(60));
    }

    static void assertUnauthorized(Authenticator auth, String header) {
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> auth.authenticate(header).get(10, TimeUnit.SECONDS));
        assertEquals(40101, ((RegistryException) e.getCause()).error().code);
    }
}
