package io.quire.node.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The web console: static files under {@code /ui/} from the jar (HTML, CSS and ES modules of our
 * own in {@code ui/}, libraries from their WebJars under {@code /ui/lib/}). It calls the node's
 * own API with the credentials the user types in, kept in the page's memory only.
 */
final class Console {

    /** Sent by the console with every call: a 401 then comes without a browser login prompt. */
    static final String HEADER = "X-Quire-Console";

    private static final String POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private Console() {
    }

    /**
     * {@code providerOrigin}: the identity provider's origin (scheme, host, port) when the console
     * signs in through it; the page may then call its token endpoint, and no other origin.
     */
    static void routes(Router r, String providerOrigin) {
        String policy = providerOrigin.isEmpty() ? POLICY : POLICY + "; connect-src 'self' " + providerOrigin;
        r.routeWithRegex(HttpMethod.GET, "^/ui$").handler(ctx -> ctx.redirect("/ui/"));
        r.route("/ui/*").handler(ctx -> {
            ctx.response().putHeader("Content-Security-Policy", policy).putHeader("X-Content-Type-Options", "nosniff")
                    .putHeader("Referrer-Policy", "no-referrer");
            ctx.next();
        });
        r.route(HttpMethod.GET, "/ui/lib/*").handler(StaticHandler.create("META-INF/resources/webjars")
                .setCachingEnabled(true).setMaxAgeSeconds(86_400).setDirectoryListing(false));
        r.route(HttpMethod.GET, "/ui/*").handler(StaticHandler.create("ui").setCachingEnabled(false)
                .setDirectoryListing(false).setIndexPage("index.html"));
    }
}
