package io.quire.node.security;

import io.quire.journal.model.ErrorCode;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Turns an {@code Authorization} header into a {@link Principal}: HTTP Basic against the users file,
 * or a bearer JWT checked for signature, expiry, issuer and audience. Either may be configured, or
 * both.
 */
public final class Authenticator {

    private final UsersFile users;
    private final JWTAuth jwt;
    private final String rolesClaim;
    private final String subjectsClaim;
    private final Executor workers;

    private Authenticator(UsersFile users, JWTAuth jwt, String rolesClaim, String subjectsClaim, Executor workers) {
        this.users = users;
        this.jwt = jwt;
        this.rolesClaim = rolesClaim;
        this.subjectsClaim = subjectsClaim;
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
            jwt = JWTAuth.create(vertx, new JWTAuthOptions().addPubSecKey(key).setJWTOptions(checks));
        }
        return new Authenticator(users, jwt, s.jwtRolesClaim(), s.jwtSubjectsClaim(), workers);
    }

    /** Completes with the caller, or fails with 40101. */
    public CompletableFuture<Principal> authenticate(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            return CompletableFuture.failedFuture(unauthorized("authentication required"));
        }
        int space = authorization.indexOf(' ');
        String scheme = space < 0 ? authorization : authorization.substring(0, space);
        String value = space < 0 ? "" : authorization.substring(space + 1).strip();
        if (scheme.equalsIgnoreCase("Basic") && users != null) {
            return basic(value);
        }
        if (scheme.equalsIgnoreCase("Bearer") && jwt != null) {
            return bearer(value);
        }
        return CompletableFuture.failedFuture(unauthorized("unsupported authorization scheme"));
    }

    private CompletableFuture<Principal> basic(String encoded) {
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
        Optional<Principal> recent = users.recentlyVerified(name, password);
        if (recent.isPresent()) {
            return CompletableFuture.completedFuture(recent.get()); // a cache hit stays on the caller's thread
        }
        return CompletableFuture.supplyAsync(() -> users.verify(name, password)
                .orElseThrow(() -> unauthorized("invalid credentials")), workers);
    }

    private CompletableFuture<Principal> bearer(String token) {
        CompletableFuture<Principal> out = new CompletableFuture<>();
        jwt.authenticate(new TokenCredentials(token)).onComplete(ar -> {
            if (ar.failed()) {
                out.completeExceptionally(unauthorized("invalid token"));
                return;
            }
            JsonObject claims = ar.result().principal();
            Role role = highestRole(claims.getValue(rolesClaim));
            if (role == null) {
                out.completeExceptionally(unauthorized("the token grants no Quire role"));
                return;
            }
            List<String> prefixes = new ArrayList<>();
            Object subjects = claims.getValue(subjectsClaim);
            if (subjects instanceof JsonArray a) {
                a.forEach(p -> prefixes.add(String.valueOf(p)));
            } else if (subjects instanceof String p) {
                prefixes.add(p);
            }
            String name = claims.getString("sub", "token");
            out.complete(new Principal(name, role, prefixes));
        });
        return out;
    }

    private static Role highestRole(Object claim) {
        List<Object> values = new ArrayList<>();
        if (claim instanceof JsonArray a) {
            a.forEach(values::add);
        } else if (claim != null) {
            values.add(claim);
        }
        Role best = null;
        for (Object v : values) {
            Role r = Role.parse(String.valueOf(v)).orElse(null);
            if (r != null && (best == null || r.includes(best))) {
                best = r;
            }
        }
        return best;
    }

    static RegistryException unauthorized(String why) {
        return new RegistryException(ErrorCode.UNAUTHORIZED, "Unauthorized: " + why);
    }
}
