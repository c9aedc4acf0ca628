package io.quire.node.security;

import com.nimbusds.jwt.JWTParser;
import io.quire.journal.model.ErrorCode;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an {@code Authorization} header into a {@link Caller}: HTTP Basic against the users file,
 * or a bearer JWT checked for signature, expiry, issuer and audience. Either may be configured, or
 * both.
 */
public final class Authenticator {

    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);

    private final UsersFile users;
    private final JWTAuth jwt;
    private final OidcVerifier oidc;
    private final ClaimMapping claims;
    private final Executor workers;
    private final TokenCache verified = new TokenCache(10_000);
    private final String consoleClientId;

    private Authenticator(UsersFile users, JWTAuth jwt, OidcVerifier oidc, ClaimMapping claims, Executor workers,
                          String consoleClientId) {
        this.consoleClientId = consoleClientId;
        this.users = users;
        this.jwt = jwt;
        this.oidc = oidc;
        this.claims = claims;
        this.workers = workers;
    }

    /** The authenticator the configuration asks for, or null when authentication is off. */
    public static Authenticator create(Vertx vertx, QuireConfig.Security s, Executor workers) throws IOException {
        if (!s.authEnabled()) {
            return null;
        }
        UsersFile users = s.usersFile().isEmpty() ? null : UsersFile.load(Path.of(s.usersFile()));
        JWTAuth jwt = null;
        if (!s.jwtPublicKeyFile().isEmpty() || !s.jwtHmacSecretFile().isEmpty()) {
            JWTOptions checks = new JWTOptions();
            if (!s.jwtIssuer().isEmpty()) {
                checks.setIssuer(s.jwtIssuer());
            }
            if (!s.jwtAudience().isEmpty()) {
                checks.setAudience(List.of(s.jwtAudience()));
            }
            PubSecKeyOptions key = s.jwtPublicKeyFile().isEmpty()
                    ? new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(
                            Buffer.buffer(Files.readString(Path.of(s.jwtHmacSecretFile())).strip()))
                    : new PubSecKeyOptions().setAlgorithm("RS256").setBuffer(
                            Buffer.buffer(Files.readString(Path.of(s.jwtPublicKeyFile()))));
            checks.setLeeway((int) s.tokens().clockSkewS());
            jwt = JWTAuth.create(vertx, new JWTAuthOptions().addPubSecKey(key).setJWTOptions(checks));
        }
        QuireConfig.Tokens t = s.tokens();
        OidcVerifier oidc = t.oidcIssuer().isEmpty() ? null : new OidcVerifier(t.oidcIssuer(), s.jwtAudience(),
                t.jwksRefreshS(), t.minFetchIntervalS(), t.clockSkewS());
        ClaimMapping claims = new ClaimMapping(s.jwtRolesClaim(), t.roleMapping(), s.jwtSubjectsClaim(),
                t.principalClaim());
        return new Authenticator(users, jwt, oidc, claims, workers, t.consoleClientId());
    }

    /** The identity provider's origin when the console signs in through it, else empty. */
    public String consoleProviderOrigin() {
        if (oidc == null || consoleClientId.isEmpty()) {
            return "";
        }
        URI u = URI.create(oidc.issuer());
        return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort());
    }

    /** Where the console signs in with the provider (authorization code with PKCE). */
    public record ConsoleSignIn(String issuer, String authorizationEndpoint, String tokenEndpoint,
                                String endSessionEndpoint, String clientId) {
    }

    /**
     * The console's provider sign-in, on a worker (the first call may fetch the discovery
     * document); empty when no provider or no console client is configured, or the provider cannot
     * be reached now.
     */
    public CompletableFuture<Optional<ConsoleSignIn>> consoleSignIn() {
        if (oidc == null || consoleClientId.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                OidcVerifier.Discovery d = oidc.discovery();
                return Optional.of(new ConsoleSignIn(d.issuer(), d.authorizationEndpoint(), d.tokenEndpoint(),
                        d.endSessionEndpoint(), consoleClientId));
            } catch (OidcVerifier.InvalidTokenException e) {
                return Optional.<ConsoleSignIn>empty();
            }
        }, workers);
    }

    /** The OpenID Connect provider's verifier, or null when none is configured. */
    public OidcVerifier oidc() {
        return oidc;
    }

    /** Completes with the caller, or fails with 40101. */
    public CompletableFuture<Caller> authenticate(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            return CompletableFuture.failedFuture(unauthorized("authentication required"));
        }
        int space = authorization.indexOf(' ');
        String scheme = space < 0 ? authorization : authorization.substring(0, space);
        String value = space < 0 ? "" : authorization.substring(space + 1).strip();
        if (scheme.equalsIgnoreCase("Basic") && users != null) {
            return basic(value);
        }
        if (scheme.equalsIgnoreCase("Bearer") && (jwt != null || oidc != null)) {
            Caller known = verified.get(value);
            if (known != null) {
                return CompletableFuture.completedFuture(known); // a token seen and checked before: on the caller's thread
            }
            return oidc != null && (jwt == null || oidcIssued(value)) ? oidcBearer(value) : bearer(value);
        }
        return CompletableFuture.failedFuture(unauthorized("unsupported authorization scheme"));
    }

    private CompletableFuture<Caller> basic(String encoded) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(unauthorized("malformed Basic credentials"));
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return CompletableFuture.failedFuture(unauthorized("malformed Basic credentials"));
        }
        String name = decoded.substring(0, colon);
        String password = decoded.substring(colon + 1);
        Optional<Caller> recent = users.recentlyVerified(name, password);
        if (recent.isPresent()) {
            return CompletableFuture.completedFuture(recent.get()); // a cache hit stays on the caller's thread
        }
        return CompletableFuture.supplyAsync(() -> users.verify(name, password)
                .orElseThrow(() -> unauthorized("invalid credentials")), workers);
    }

    private CompletableFuture<Caller> bearer(String token) {
        CompletableFuture<Caller> out = new CompletableFuture<>();
        jwt.authenticate(new TokenCredentials(token)).onComplete(ar -> {
            if (ar.failed()) {
                out.completeExceptionally(unauthorized("invalid token"));
                return;
            }
            JsonObject body = ar.result().principal();
            try {
                out.complete(remember(token, body.getMap()));
            } catch (RegistryException e) {
                out.completeExceptionally(e);
            }
        });
        return out;
    }

    /** A provider's token, checked on a worker: a key-set fetch may block. */
    private CompletableFuture<Caller> oidcBearer(String token) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return remember(token, oidc.verify(token));
            } catch (OidcVerifier.InvalidTokenException e) {
                LOG.debug("bearer token refused: {}", e.getMessage());
                throw unauthorized("invalid token");
            }
        }, workers);
    }

    /** The caller a checked token's claims name, kept until the token expires. */
    private Caller remember(String token, Map<String, Object> body) {
        Caller p = claims.principal(body).orElseThrow(() -> unauthorized("the token grants no Quire role"));
        Object exp = body.get("exp");
        long expMs = exp instanceof Number n ? n.longValue() * 1000 : exp instanceof Date d ? d.getTime() : 0;
        if (expMs > 0) {
            verified.put(token, p, expMs);
        }
        return p;
    }

    /** Whether the token names the OpenID Connect provider as its issuer (read without checking it). */
    private boolean oidcIssued(String token) {
        try {
            return oidc.issuer().equals(JWTParser.parse(token).getJWTClaimsSet().getIssuer());
        } catch (ParseException e) {
            return false;
        }
    }

    static RegistryException unauthorized(String why) {
        return new RegistryException(ErrorCode.UNAUTHORIZED, "Unauthorized: " + why);
    }
}
