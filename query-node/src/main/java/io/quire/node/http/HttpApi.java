package io.quire.node.http;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.quire.node.follow.ConfluentFollower;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.region.Regions;
import io.quire.node.security.Authenticator;
import io.quire.node.service.Registry;
import io.quire.node.service.Search;
import io.quire.node.service.ViewAccess;
import io.quire.node.view.apply.AppliedTracker;
import io.quire.node.view.snapshot.Snapshots;
import io.quire.node.write.JournalPort;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/** The route table of a node, declared once. */
public final class HttpApi {

    /** Everything the handlers need. */
    public record Deps(Registry registry, ViewAccess access, AppliedTracker tracker,
                       QuireMetrics metrics, NodeStatus status, Admin admin, Executor adminScans, long maxBodyBytes,
                       long readWaitTimeoutMs, int maxPageSize, Authenticator authenticator, boolean authMetrics,
                       int incompatibleErrorCode) {
    }

    /**
     * The services the admin endpoints use: snapshots of the view, the node's region (null: none),
     * its follower of a Confluent registry (null: it runs none) and the journal the cut-over writes
     * to (null: none).
     */
    public record Admin(Callable<Snapshots.Taken> snapshots, Regions regions, ConfluentFollower follower,
                        JournalPort journal) {
    }

    private HttpApi() {
    }

    public static Router router(Vertx vertx, Deps d) {
        Router r = Router.router(vertx);
        Registry reg = d.registry();
        SubjectsHandler subjects = new SubjectsHandler(reg.subjects(), reg.registrations(), reg.deletes(),
                d.maxPageSize());
        AuditHandler audit = new AuditHandler(d.access(), d.adminScans(), d.maxPageSize());
        SchemasHandler schemas = new SchemasHandler(reg.schemas(), d.maxPageSize());
        ConfigHandler config = new ConfigHandler(reg.settingsReads(), reg.settings());
        AssociationsHandler associations = new AssociationsHandler(reg.associations(), d.maxPageSize());
        CompatibilityHandler compat = new CompatibilityHandler(reg.checks());
        HealthHandler health = new HealthHandler(d.status(), d.metrics());
        ViewAdminHandler viewAdmin = new ViewAdminHandler(d.access(), d.admin().snapshots(), d.adminScans());
        RegionHandler region = new RegionHandler(d.admin().regions(), d.status()::journalEndOffset);
        FollowHandler follow = new FollowHandler(d.access(), d.admin().follower(), d.admin().journal());
        ClusterHandler cluster = new ClusterHandler(d.status(), d.access());
        PrincipalHandler principal = new PrincipalHandler(d.authenticator());
        ContextsHandler contexts = new ContextsHandler(reg.contexts());
        KeysHandler keys = new KeysHandler(reg.keys(), d.maxPageSize());
        ApicurioApi apicurio = new ApicurioApi(reg.artifacts());
        ExportersHandler exporters = new ExportersHandler(reg.exporters());
        ChangeSetsHandler changeSets = new ChangeSetsHandler(reg.changeSets());
        LintHandler lint = new LintHandler(reg.linting());
        SearchHandler search = new SearchHandler(new Search(d.access()), d.adminScans(), d.maxPageSize());
        RouteTable t = new RouteTable(r, new Target.Resolver(d.access()));

        r.route().handler(new NodeGate(d.status(), d.access(), d.readWaitTimeoutMs())); // before anything reads the view
        r.route().handler(ctx -> timed(ctx, d.metrics()));
        r.route().handler(BodyHandler.create(false).setBodyLimit(d.maxBodyBytes()));
        r.route().handler(new AuthHandler(d.authenticator()));
        r.route().handler(new ReadYourWrites(d.tracker(), d.readWaitTimeoutMs()));

        // The hot routes first: the router tries routes in order and matches each parametric path
        // with a regex, so the clients' lookups by id and registrations skip the rest. No route
        // above or below matches the same requests as these.
        t.route(HttpMethod.GET, "/schemas/ids/:id", Access.READ, schemas::byId);
        t.route(HttpMethod.POST, "/subjects/:subject/versions", Access.WRITE, subjects::register);
        t.route(HttpMethod.GET, "/schemas/guids/:guid", Access.READ, schemas::byGuid);
        t.route(HttpMethod.GET, "/schemas/guids/:guid/ids", Access.READ, schemas::idsOfGuid);
        t.route(HttpMethod.GET, "/schemas/ids/:id/schema", Access.READ, schemas::rawById);
        t.route(HttpMethod.GET, "/schemas/ids/:id/subjects", Access.READ, schemas::subjectsOfId);
        t.route(HttpMethod.GET, "/schemas/ids/:id/versions", Access.READ, schemas::versionsOfId);

        t.route(HttpMethod.GET, "/subjects", Access.READ, SearchHandler.byTagsOr(search::taggedSubjects, subjects::list));
        t.route(HttpMethod.POST, "/subjects/:subject", Access.READ, subjects::lookup);
        t.route(HttpMethod.DELETE, "/subjects/:subject", Access.DELETE, subjects::deleteSubject);
        t.route(HttpMethod.GET, "/subjects/:subject/versions", Access.READ, subjects::versions);
        t.route(HttpMethod.GET, "/subjects/:subject/metadata", Access.READ, subjects::latestWithMetadata);
        t.route(HttpMethod.GET, "/subjects/:subject/versions/:version", Access.READ, subjects::version);
        t.route(HttpMethod.DELETE, "/subjects/:subject/versions/:version", Access.DELETE, subjects::deleteVersion);
        t.route(HttpMethod.GET, "/subjects/:subject/versions/:version/schema", Access.READ, subjects::versionSchema);
        t.route(HttpMethod.GET, "/subjects/:subject/versions/:version/referencedby", Access.READ,
                subjects::referencedBy);

        t.route(HttpMethod.GET, "/", Access.OPEN, health::root);
        t.route(HttpMethod.GET, "/health/live", Access.OPEN, health::live);
        t.route(HttpMethod.GET, "/v1/metadata/id", Access.READ, health::metadataId);
        t.route(HttpMethod.GET, "/v1/metadata/version", Access.READ, health::metadataVersion);
        t.route(HttpMethod.GET, "/health/ready", Access.OPEN, health::ready);
        t.route(HttpMethod.GET, "/metrics", d.authMetrics() ? Access.ADMIN : Access.OPEN, health::metrics);
        t.route(HttpMethod.GET, "/admin/position", Access.ADMIN, viewAdmin::position);
        t.route(HttpMethod.GET, "/admin/view-digest", Access.ADMIN, viewAdmin::viewDigest);
        t.route(HttpMethod.POST, "/admin/snapshot", Access.ADMIN, viewAdmin::snapshot);
        t.route(HttpMethod.GET, "/admin/snapshot/archive", Access.ADMIN, viewAdmin::snapshotArchive);
        t.route(HttpMethod.GET, "/audit", Access.ADMIN, audit::list);
        t.route(HttpMethod.POST, "/changesets", Access.WRITE, changeSets::apply);
        t.route(HttpMethod.POST, "/lint", Access.READ, lint::lint);
        t.route(HttpMethod.GET, "/v1/principal", Access.OPEN, principal::principal);
        t.route(HttpMethod.GET, "/admin/cluster", Access.ADMIN, cluster::cluster);
        t.route(HttpMethod.GET, "/admin/recent", Access.ADMIN, health::recent);
        t.route(HttpMethod.GET, "/admin/follow", Access.ADMIN, follow::follow);
        t.route(HttpMethod.GET, "/admin/region", Access.ADMIN, region::region);
        t.route(HttpMethod.POST, "/admin/promote", Access.ADMIN, region::promote);
        t.route(HttpMethod.GET, "/exporters", Access.ADMIN, exporters::list);
        t.route(HttpMethod.POST, "/exporters", Access.ADMIN, exporters::create);
        t.route(HttpMethod.GET, "/exporters/:name", Access.ADMIN, exporters::get);
        t.route(HttpMethod.PUT, "/exporters/:name", Access.ADMIN, exporters::update);
        t.route(HttpMethod.DELETE, "/exporters/:name", Access.ADMIN, exporters::delete);
        t.route(HttpMethod.GET, "/exporters/:name/config", Access.ADMIN, exporters::config);
        t.route(HttpMethod.PUT, "/exporters/:name/config", Access.ADMIN, exporters::updateConfig);
        t.route(HttpMethod.GET, "/exporters/:name/status", Access.ADMIN, exporters::status);
        t.route(HttpMethod.PUT, "/exporters/:name/pause", Access.ADMIN, exporters::pause);
        t.route(HttpMethod.PUT, "/exporters/:name/resume", Access.ADMIN, exporters::resume);
        t.route(HttpMethod.PUT, "/exporters/:name/reset", Access.ADMIN, exporters::reset);
        t.route(HttpMethod.POST, "/admin/follow/cutover", Access.ADMIN, follow::cutOver);
        Console.routes(r, d.authenticator() == null ? "" : d.authenticator().consoleProviderOrigin());

        String keks = "/dek-registry/v1/keks";
        t.route(HttpMethod.GET, keks, Access.READ, keys::kekNames);
        t.route(HttpMethod.POST, keks, Access.WRITE, keys::createKek);
        t.route(HttpMethod.GET, keks + "/:name", Access.READ, keys::kek);
        t.route(HttpMethod.PUT, keks + "/:name", Access.WRITE, keys::updateKek);
        t.route(HttpMethod.DELETE, keks + "/:name", Access.DELETE, keys::deleteKek);
        t.route(HttpMethod.POST, keks + "/:name/undelete", Access.WRITE, keys::undeleteKek);
        t.route(HttpMethod.GET, keks + "/:name/deks", Access.READ, keys::dekSubjects);
        t.route(HttpMethod.POST, keks + "/:name/deks", Access.WRITE, keys::createDek);
        t.route(HttpMethod.POST, keks + "/:name/deks/:subject", Access.WRITE, keys::createDek);
        t.route(HttpMethod.GET, keks + "/:name/deks/:subject", Access.READ, keys::dek);
        t.route(HttpMethod.DELETE, keks + "/:name/deks/:subject", Access.DELETE, keys::deleteDek);
        t.route(HttpMethod.POST, keks + "/:name/deks/:subject/undelete", Access.WRITE, keys::undeleteDek);
        t.route(HttpMethod.GET, keks + "/:name/deks/:subject/versions", Access.READ, keys::dekVersions);
        t.route(HttpMethod.GET, keks + "/:name/deks/:subject/versions/:version", Access.READ, keys::dekVersion);
        t.route(HttpMethod.DELETE, keks + "/:name/deks/:subject/versions/:version", Access.DELETE, keys::deleteDek);
        t.route(HttpMethod.POST, keks + "/:name/deks/:subject/versions/:version/undelete", Access.WRITE,
                keys::undeleteDek);
        t.route(HttpMethod.GET, "/contexts", Access.READ, contexts::list);
        t.route(HttpMethod.DELETE, "/contexts/:context", Access.ADMIN, contexts::delete);
        t.route(HttpMethod.GET, "/schemas", Access.READ, SearchHandler.byTagsOr(search::taggedSchemas, schemas::list));
        t.route(HttpMethod.GET, "/search", Access.READ, search::search);
        t.route(HttpMethod.GET, "/search/impact", Access.READ, search::impact);
        t.route(HttpMethod.GET, "/schemas/types", Access.READ, schemas::types);
        t.route(HttpMethod.POST, "/associations", Access.WRITE, associations::create);
        t.routeExactly(HttpMethod.POST, "/associations:batchMutate", Access.WRITE, associations::batchMutate);
        t.routeExactly(HttpMethod.POST, "/associations:batchGet", Access.READ, associations::batchGet);
        t.route(HttpMethod.PUT, "/associations", Access.WRITE, associations::replace);
        t.route(HttpMethod.GET, "/associations/subjects/:subject", Access.READ, associations::bySubject);
        t.route(HttpMethod.GET, "/associations/resources/:namespace/:name", Access.READ, associations::byResourceName);
        t.route(HttpMethod.GET, "/associations/resources/:id", Access.READ, associations::byResourceId);
        t.route(HttpMethod.DELETE, "/associations/resources/:id", Access.WRITE, associations::delete);

        t.route(HttpMethod.GET, "/config", Access.READ, config::getGlobal);
        t.route(HttpMethod.PUT, "/config", Access.ADMIN, config::put);
        t.route(HttpMethod.DELETE, "/config", Access.ADMIN, config::delete);
        t.route(HttpMethod.GET, "/config/:subject", Access.READ, config::getSubject);
        t.route(HttpMethod.PUT, "/config/:subject", Access.ADMIN, config::put);
        t.route(HttpMethod.DELETE, "/config/:subject", Access.ADMIN, config::delete);

        t.route(HttpMethod.GET, "/mode", Access.READ, config::getGlobalMode);
        t.route(HttpMethod.PUT, "/mode", Access.ADMIN, config::putMode);
        t.route(HttpMethod.GET, "/mode/:subject", Access.READ, config::getSubjectMode);
        t.route(HttpMethod.PUT, "/mode/:subject", Access.ADMIN, config::putMode);
        t.route(HttpMethod.DELETE, "/mode/:subject", Access.ADMIN, config::deleteMode);

        t.route(HttpMethod.POST, "/compatibility/subjects/:subject/versions", Access.WRITE, compat::againstAll);
        t.route(HttpMethod.POST, "/compatibility/subjects/:subject/versions/:version", Access.WRITE,
                compat::againstVersion);

        String v3 = ApicurioApi.BASE;
        String artifact = v3 + "/groups/:group/artifacts/:subject/versions/:version";
        t.route(HttpMethod.POST, v3 + "/groups/:group/artifacts", Access.WRITE, apicurio::createArtifact);
        t.route(HttpMethod.POST, v3 + "/search/versions", Access.READ, apicurio::searchVersions);
        t.route(HttpMethod.GET, artifact, Access.READ, apicurio::version);
        t.route(HttpMethod.GET, artifact + "/content", Access.READ, apicurio::versionContent);
        t.route(HttpMethod.GET, artifact + "/references", Access.READ, apicurio::versionReferences);
        t.route(HttpMethod.GET, v3 + "/ids/contentIds/:id", Access.READ, apicurio::contentById);
        t.route(HttpMethod.GET, v3 + "/ids/contentIds/:id/references", Access.READ, apicurio::contentReferences);
        t.route(HttpMethod.GET, v3 + "/ids/globalIds/:id", Access.READ, apicurio::globalId);
        t.route(HttpMethod.GET, v3 + "/ids/globalIds/:id/references", Access.READ, apicurio::globalIdReferences);
        t.route(HttpMethod.GET, v3 + "/ids/contentHashes/:hash", Access.READ, apicurio::contentHash);
        t.route(HttpMethod.GET, v3 + "/ids/contentHashes/:hash/references", Access.READ,
                apicurio::contentHashReferences);

        t.underContexts(v3); // after every root route: the hot routes stay the first the router tries

        Handler<RoutingContext> apicurioProblems = ApicurioApi.problems();
        FailureHandler failures = new FailureHandler(d.incompatibleErrorCode());
        r.route(v3 + "/*").failureHandler(apicurioProblems); // Apicurio's error bodies under its API
        r.route().failureHandler(failures);
        // No route for the path (404) or for the method on a path that has routes (405), as Confluent answers.
        Handler<RoutingContext> unmatched = ctx -> (ctx.request().path().startsWith(v3 + "/") ? apicurioProblems
                : failures).handle(ctx);
        r.errorHandler(404, unmatched);
        r.errorHandler(405, unmatched);
        return r;
    }

    /**
     * The router behind a guard for requests it cannot even route (a path that does not start
     * with '/', such as {@code GET ?x HTTP/1.1}): those get a 400 here instead of a router error;
     * a form or multipart body gets a 415 before anything reads it. A plain lookup by id that
     * none of the router's handlers would stop is answered before it ({@link HotRead}).
     */
    public static Handler<HttpServerRequest> guarded(Router router, Deps d) {
        HotRead hot = HotRead.of(d); // lookups by id that none of the router's handlers would stop
        return req -> {
            String path = req.path();
            if (path == null || !path.startsWith("/")) {
                badRequest(req, "The request path must start with '/'");
                return;
            }
            if (!decodable(path) || !decodable(req.query())) {
                badRequest(req, "The request path or query has a malformed percent-encoding");
                return;
            }
            if (isForm(req.getHeader("Content-Type"))) {
                // every body here is JSON (or a schema's text): a form is never decoded
                ApiJson.error(req.response(), 415, 415, "HTTP 415 Unsupported Media Type: form bodies are not accepted");
                return;
            }
            if (hot != null && hot.served(req)) {
                return;
            }
            router.handle(req);
        };
    }

    /** A form or multipart content type: Vert.x would decode such a body as form fields. */
    static boolean isForm(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.trim().toLowerCase(Locale.ROOT);
        return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
    }

    private static void badRequest(HttpServerRequest req, String message) {
        ApiJson.error(req.response(), 400, 400, message);
    }

    /** Every '%' is followed by two hex digits and the bytes decode as UTF-8. */
    static boolean decodable(String raw) {
        if (raw == null || raw.indexOf('%') < 0) {
            return true;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes.write(c > 0x7f ? '?' : c);
                continue;
            }
            if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0
                    || Character.digit(raw.charAt(i + 2), 16) < 0) {
                return false;
            }
            bytes.write(Character.digit(raw.charAt(i + 1), 16) * 16 + Character.digit(raw.charAt(i + 2), 16));
            i += 2;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * A request the HTTP codec could not read (a broken request line, a line or headers over the
     * limits): the same statuses Vert.x would answer, with a Confluent error body; the connection
     * is closed after it.
     */
    static void invalidRequest(HttpServerRequest req) {
        Throwable cause = req.decoderResult().cause();
        int status = cause instanceof TooLongHttpLineException ? 414
                : cause instanceof TooLongHttpHeaderException ? 431 : 400;
        String message = switch (status) {
            case 414 -> "The request line is too long";
            case 431 -> "The request headers are too large";
            default -> "The request could not be read as HTTP";
        };
        ApiJson.error(req.response().putHeader("Connection", "close"), status, status, message);
    }

    private static void timed(RoutingContext ctx, QuireMetrics metrics) {
        long start = System.nanoTime();
        ctx.addEndHandler(v -> {
            String route = ctx.get(RouteTable.ROUTE);
            metrics.httpRequest(ctx.request().method().name(), route == null ? "unmatched" : route,
                    ctx.response().getStatusCode(), System.nanoTime() - start);
        });
        ctx.next();
    }
}
