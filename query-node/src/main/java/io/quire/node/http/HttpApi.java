package io.quire.node.http;

import io.quire.node.metrics.QuireMetrics;
import io.quire.node.service.RegistryReads;
import io.quire.node.service.RegistryWrites;
import io.quire.node.service.ViewAccess;
import io.quire.node.view.AppliedTracker;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.concurrent.Executor;

/** The route table of a node, declared once. */
public final class HttpApi {

    /** Everything the handlers need. */
    public record Deps(RegistryReads reads, RegistryWrites writes, ViewAccess access, AppliedTracker tracker,
                       QuireMetrics metrics, NodeStatus status, Executor workers, long maxBodyBytes,
                       long readWaitTimeoutMs) {
    }

    private HttpApi() {
    }

    public static Router router(Vertx vertx, Deps d) {
        Router r = Router.router(vertx);
        SubjectsHandler subjects = new SubjectsHandler(d.reads(), d.writes());
        SchemasHandler schemas = new SchemasHandler(d.reads());
        ConfigHandler config = new ConfigHandler(d.reads(), d.writes());
        CompatibilityHandler compat = new CompatibilityHandler(d.writes());
        OpsHandler ops = new OpsHandler(d.status(), d.metrics(), d.access(), d.workers());

        r.route().handler(ctx -> timed(ctx, d.metrics()));
        r.route().handler(BodyHandler.create(false).setBodyLimit(d.maxBodyBytes()));
        r.route().handler(new ReadYourWrites(d.tracker(), d.readWaitTimeoutMs()));

        route(r, HttpMethod.GET, "/", ops::root);
        route(r, HttpMethod.GET, "/health/live", ops::live);
        route(r, HttpMethod.GET, "/health/ready", ops::ready);
        route(r, HttpMethod.GET, "/metrics", ops::metrics);
        route(r, HttpMethod.GET, "/admin/position", ops::position);
        route(r, HttpMethod.GET, "/admin/view-digest", ops::viewDigest);

        route(r, HttpMethod.GET, "/schemas/types", schemas::types);
        route(r, HttpMethod.GET, "/schemas/ids/:id", schemas::byId);
        route(r, HttpMethod.GET, "/schemas/ids/:id/schema", schemas::rawById);
        route(r, HttpMethod.GET, "/schemas/ids/:id/subjects", schemas::subjectsOfId);
        route(r, HttpMethod.GET, "/schemas/ids/:id/versions", schemas::versionsOfId);

        route(r, HttpMethod.GET, "/subjects", subjects::list);
        route(r, HttpMethod.POST, "/subjects/:subject", subjects::lookup);
        route(r, HttpMethod.DELETE, "/subjects/:subject", subjects::deleteSubject);
        route(r, HttpMethod.GET, "/subjects/:subject/versions", subjects::versions);
        route(r, HttpMethod.POST, "/subjects/:subject/versions", subjects::register);
        route(r, HttpMethod.GET, "/subjects/:subject/versions/:version", subjects::version);
        route(r, HttpMethod.DELETE, "/subjects/:subject/versions/:version", subjects::deleteVersion);
        route(r, HttpMethod.GET, "/subjects/:subject/versions/:version/schema", subjects::versionSchema);

        route(r, HttpMethod.GET, "/config", config::getGlobal);
        route(r, HttpMethod.PUT, "/config", config::put);
        route(r, HttpMethod.DELETE, "/config", config::delete);
        route(r, HttpMethod.GET, "/config/:subject", config::getSubject);
        route(r, HttpMethod.PUT, "/config/:subject", config::put);
        route(r, HttpMethod.DELETE, "/config/:subject", config::delete);

        route(r, HttpMethod.GET, "/mode", config::getGlobalMode);
        route(r, HttpMethod.PUT, "/mode", config::putMode);
        route(r, HttpMethod.GET, "/mode/:subject", config::getSubjectMode);
        route(r, HttpMethod.PUT, "/mode/:subject", config::putMode);
        route(r, HttpMethod.DELETE, "/mode/:subject", config::deleteMode);

        route(r, HttpMethod.POST, "/compatibility/subjects/:subject/versions", compat::againstAll);
        route(r, HttpMethod.POST, "/compatibility/subjects/:subject/versions/:version", compat::againstVersion);

        r.route().handler(ctx -> ctx.fail(404));
        r.route().failureHandler(new FailureHandler());
        return r;
    }

    private static void route(Router r, HttpMethod method, String path, Handler<RoutingContext> handler) {
        r.route(method, path).handler(ctx -> {
            ctx.put(ROUTE, path);
            handler.handle(ctx);
        });
    }

    private static final String ROUTE = "quire.route";

    private static void timed(RoutingContext ctx, QuireMetrics metrics) {
        long start = System.nanoTime();
        ctx.addEndHandler(v -> {
            String route = ctx.get(ROUTE);
            metrics.httpRequest(ctx.request().method().name(), route == null ? "unmatched" : route,
                    ctx.response().getStatusCode(), System.nanoTime() - start);
        });
        ctx.next();
    }
}
