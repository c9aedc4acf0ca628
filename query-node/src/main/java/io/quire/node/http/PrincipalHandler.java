package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.node.security.Authenticator;
import io.quire.node.security.Caller;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * {@code GET /v1/principal} (Quire's): who the caller is, so that the console offers only what the
 * role may do. Open: an anonymous caller learns whether authentication is on, and the console's
 * provider sign-in (public facts: endpoints and a public client's id, no secret).
 */
final class PrincipalHandler {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record CallerInfo(boolean authentication, boolean authenticated, String name, String role,
                      List<String> subjectPrefixes, Authenticator.ConsoleSignIn oidc) {
    }

    private final Authenticator authenticator;

    /** {@code authenticator} null: authentication is off. */
    PrincipalHandler(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    void principal(RoutingContext ctx) {
        Caller p = ctx.get(AuthHandler.PRINCIPAL);
        boolean on = authenticator != null;
        if (!on) {
            ApiJson.ok(ctx, info(p, false, null));
            return;
        }
        Async.reply(ctx, authenticator.consoleSignIn().thenApply(signIn -> info(p, true, signIn.orElse(null))),
                ApiJson::ok);
    }

    private static CallerInfo info(Caller p, boolean authentication, Authenticator.ConsoleSignIn signIn) {
        return p == null ? new CallerInfo(authentication, false, null, null, null, signIn)
                : new CallerInfo(authentication, true, p.name(), p.role().name(), p.subjectPrefixes(), signIn);
    }
}
