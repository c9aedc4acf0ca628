package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.error.RegistryException;
import io.quire.node.security.Authenticator;
import io.quire.node.security.Caller;
import io.quire.node.security.Role;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Authentication for every request (who is calling, if anyone says so) and the access check each
 * route runs before its handler (may this caller do this, to this subject). With authentication
 * off, every caller is an anonymous admin.
 */
final class AuthHandler implements Handler<RoutingContext> {

    static final String PRINCIPAL = "quire.principal";

    private final Authenticator authenticator;

    AuthHandler(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void handle(RoutingContext ctx) {
        if (authenticator == null) {
            ctx.put(PRINCIPAL, Caller.ANONYMOUS_ADMIN);
            ctx.next();
            return;
        }
        String header = ctx.request().getHeader("Authorization");
        if (header == null) {
            ctx.next(); // anonymous: open routes still answer, the others say 401
            return;
        }
        Async.reply(ctx, authenticator.authenticate(header), (c, principal) -> {
            c.put(PRINCIPAL, principal);
            c.next();
        });
    }

    /** Throws 40101 or 40301 unless the caller may use this route (and its subject, if any). */
    static void check(RoutingContext ctx, Access access) {
        Role required = access.required(ctx);
        if (required == null) {
            return;
        }
        Caller p = ctx.get(PRINCIPAL);
        if (p == null) {
            if (ctx.request().getHeader(Console.HEADER) == null) { // the console asks for credentials itself
                ctx.response().putHeader("WWW-Authenticate", "Basic realm=\"quire\"");
            }
            throw new RegistryException(ErrorCode.UNAUTHORIZED, "Unauthorized: authentication required");
        }
        if (!p.role().includes(required)) {
            throw new RegistryException(ErrorCode.FORBIDDEN,
                    "Forbidden: " + p.name() + " has role " + p.role() + ", this needs " + required);
        }
        String subject = Params.subjectName(ctx);
        if (subject != null && !p.mayTouch(subject)) {
            throw new RegistryException(ErrorCode.FORBIDDEN,
                    "Forbidden: " + p.name() + " may not act on subject '" + subject + "'");
        }
    }
}
