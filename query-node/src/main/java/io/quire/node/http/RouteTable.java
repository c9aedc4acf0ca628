package io.quire.node.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Declares each route of the API once. A route is added at the root as declared, and again under
 * {@code /contexts/:context} once every root route is in ({@link #underContexts}), so the clients'
 * hot routes stay the first the router tries. Each route's guard resolves the request's
 * {@link Target}, records the route's name for the metrics (the root path, under a context too),
 * checks the caller's access, then calls the handler.
 */
final class RouteTable {

    static final String ROUTE = "quire.route";
    private static final String CONTEXTS = "/contexts/:context";
    /** The routes whose bare path under a named context is that context's own settings. */
    private static final List<String> SETTINGS = List.of("/config", "/mode");

    private record Declared(HttpMethod method, String path, Access access, Handler<RoutingContext> handler,
                            boolean exact) {
    }

    private final Router router;
    private final Target.Resolver resolver;
    private final List<Declared> declared = new ArrayList<>();

    RouteTable(Router router, Target.Resolver resolver) {
        this.router = router;
        this.resolver = resolver;
    }

    void route(HttpMethod method, String path, Access access, Handler<RoutingContext> handler) {
        guard(router.route(method, path), path, access, handler);
        declared.add(new Declared(method, path, access, handler, false));
    }

    /** A route whose path holds a ':' that is not a parameter (Confluent's {@code /associations:batchGet}). */
    void routeExactly(HttpMethod method, String path, Access access, Handler<RoutingContext> handler) {
        guard(router.routeWithRegex(method, Pattern.quote(path)), path, access, handler);
        declared.add(new Declared(method, path, access, handler, true));
    }

    /**
     * Every route declared so far, but those of Apicurio's API and of the contexts themselves, under
     * {@code /contexts/:context} too: the same resource, its subjects qualified by the context
     * ({@link Target}). A bare {@code /config} or {@code /mode} there is the named context's own
     * settings, served by the {@code /config/:subject} or {@code /mode/:subject} route of the same
     * method; under the default context it is the registry's, served by the bare route (405 when
     * that method has none).
     */
    void underContexts(String apicurioBase) {
        for (Declared d : declared) {
            String path = d.path();
            if (path.equals("/") || path.startsWith("/contexts") || path.startsWith(apicurioBase)
                    || SETTINGS.contains(path)) {
                continue;
            }
            Route route = d.exact()
                    ? router.routeWithRegex(d.method(), "/contexts/(?<context>[^/]+)" + Pattern.quote(path))
                    : router.route(d.method(), CONTEXTS + path);
            guard(route, path, d.access(), d.handler());
        }
        for (String bare : SETTINGS) {
            for (HttpMethod method : declared.stream().filter(d -> d.path().equals(bare)
                    || d.path().equals(bare + "/:subject")).map(Declared::method).distinct().toList()) {
                Declared global = find(method, bare);
                Declared own = find(method, bare + "/:subject");
                guard(router.route(method, CONTEXTS + bare), bare, (own != null ? own : global).access(), ctx -> {
                    Declared d = Target.of(ctx).subject() != null ? own : global;
                    if (d == null) {
                        ctx.fail(405);
                    } else {
                        d.handler().handle(ctx);
                    }
                });
            }
        }
    }

    private Declared find(HttpMethod method, String path) {
        return declared.stream().filter(d -> d.method().equals(method) && d.path().equals(path)).findFirst()
                .orElse(null);
    }

    /** The request's target, the route's metric name, then the caller's access, then the handler. */
    private void guard(Route route, String path, Access access, Handler<RoutingContext> handler) {
        Target.Kind kind = Target.Kind.of(path);
        route.handler(ctx -> {
            ctx.put(ROUTE, path);
            try {
                resolver.resolve(ctx, kind);
            } catch (IllegalArgumentException e) {
                ApiJson.error(ctx.response(), 400, 400, e.getMessage()); // a context name that cannot be one
                return;
            }
            AuthHandler.check(ctx, access);
            handler.handle(ctx);
        });
    }
}
