package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.InvalidSchemaException;
import io.quire.node.service.Artifacts.Content;
import io.quire.node.service.Artifacts.VersionMeta;
import io.quire.node.service.Artifacts;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;

/**
 * The part of Apicurio Registry's v3 REST API ({@code /apis/registry/v3}) that Apicurio's own
 * serdes call: find or register a version on the produce path, read content by content id, global
 * id or content hash on the consume path, a version's metadata, content and references. Bodies and
 * errors have Apicurio's shapes ({@code VersionMetaData}, {@code ProblemDetails}); the data is the
 * Confluent API's, see {@link Artifacts}.
 */
final class ApicurioApi {

    static final String BASE = "/apis/registry/v3";

    private final Artifacts artifacts;

    ApicurioApi(Artifacts artifacts) {
        this.artifacts = artifacts;
    }

    /** {@code CreateArtifact}: the serdes send the artifact with its first version's content. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record CreateArtifact(String artifactId, String artifactType, CreateVersion firstVersion) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record CreateVersion(String version, VersionContent content) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record VersionContent(String content, String contentType, List<ArtifactReference> references) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ArtifactReference(String groupId, String artifactId, String version, String name) {
    }

    // ---- produce path

    /** {@code POST /groups/{g}/artifacts?ifExists=…}: a CreateArtifactResponse. */
    void createArtifact(RoutingContext ctx) {
        Artifacts.IfExists ifExists = ifExists(ctx.queryParams().get("ifExists"));
        CreateArtifact body = ApiJson.body(ctx, CreateArtifact.class);
        if (body == null || body.artifactId() == null || body.artifactId().isEmpty()) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "artifactId is required (Quire does not make up ids)");
        }
        if (body.firstVersion() == null || body.firstVersion().content() == null
                || body.firstVersion().content().content() == null) {
            throw new RegistryException(ErrorCode.BAD_REQUEST,
                    "firstVersion.content is required: a Quire artifact is a subject, which has at least one version");
        }
        Subject subject = Artifacts.subject(ctx.pathParam("group"), body.artifactId());
        var caller = Params.caller(ctx);
        if (!caller.mayTouch(subject)) {
            throw new RegistryException(ErrorCode.FORBIDDEN,
                    "Forbidden: " + caller.name() + " may not act on subject '" + subject + "'");
        }
        VersionContent content = body.firstVersion().content();
        RegisterRequest req = new RegisterRequest(content.content(), type(body.artifactType()).name(),
                references(content.references()), null, null);
        Async.reply(ctx, artifacts.create(subject, ifExists, body.firstVersion().version(), req, Params.principal(ctx)),
                (c, written) -> {
                    c.response().putHeader(ApiJson.OFFSET_HEADER, Long.toString(written.offset().value()));
                    send(c, 200, new ApicurioBodies.CreateArtifactResponse(
                            ApicurioBodies.ArtifactMetaData.of(artifacts.artifact(subject)),
                            ApicurioBodies.VersionMetaData.of(written.value())));
                });
    }

    /** {@code POST /search/versions}: the body is the schema; a VersionSearchResults. */
    void searchVersions(RoutingContext ctx) {
        String text = ctx.body().asString();
        if (text == null || text.isBlank()) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "The request body must be the content to search for");
        }
        String artifactId = ctx.queryParams().get("artifactId");
        String group = ctx.queryParams().get("groupId");
        Subject artifact = artifactId == null || artifactId.isEmpty() ? null : Subject.of(artifactId);
        String typeName = ctx.queryParams().get("artifactType");
        SchemaType type = typeName == null || typeName.isEmpty() ? null : type(typeName);
        String orderBy = ctx.queryParams().get("orderby");
        if (orderBy != null && !List.of("globalId", "version", "createdOn").contains(orderBy)) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "orderby must be globalId, version or createdOn");
        }
        boolean ascending = !"desc".equalsIgnoreCase(ctx.queryParams().get("order"));
        int offset = number(ctx, "offset", 0);
        int limit = number(ctx, "limit", 20);
        var caller = Params.caller(ctx);
        Artifacts.Page page = artifacts.search(group, artifact, type, text, ascending, offset, limit, caller::mayTouch);
        send(ctx, 200, ApicurioBodies.VersionSearchResults.of(page));
    }

    // ---- versions of an artifact

    void version(RoutingContext ctx) {
        send(ctx, 200, ApicurioBodies.VersionMetaData.of(artifacts.version(subject(ctx), ctx.pathParam("version"))));
    }

    void versionContent(RoutingContext ctx) {
        sendContent(ctx, artifacts.content(subject(ctx), ctx.pathParam("version"), dereference(ctx)));
    }

    void versionReferences(RoutingContext ctx) {
        Subject s = subject(ctx);
        sendReferences(ctx, artifacts.content(s, ctx.pathParam("version"), false));
    }

    // ---- consume path

    void contentById(RoutingContext ctx) {
        sendContent(ctx, artifacts.content(contentId(ctx), dereference(ctx)));
    }

    void contentReferences(RoutingContext ctx) {
        sendReferences(ctx, artifacts.content(contentId(ctx), false));
    }

    void globalId(RoutingContext ctx) {
        VersionMeta v = visible(ctx, artifacts.byGlobalId(longParam(ctx, "id")));
        sendContent(ctx, artifacts.content(v, dereference(ctx)));
    }

    void globalIdReferences(RoutingContext ctx) {
        VersionMeta v = visible(ctx, artifacts.byGlobalId(longParam(ctx, "id")));
        sendReferences(ctx, artifacts.content(v, false));
    }

    void contentHash(RoutingContext ctx) {
        sendContent(ctx, artifacts.content(artifacts.byContentHash(hash(ctx)), dereference(ctx)));
    }

    void contentHashReferences(RoutingContext ctx) {
        sendReferences(ctx, artifacts.content(artifacts.byContentHash(hash(ctx)), false));
    }

    // ---- parameters

    private static Subject subject(RoutingContext ctx) {
        return Artifacts.subject(ctx.pathParam("group"), ctx.pathParam("subject"));
    }

    private static VersionMeta visible(RoutingContext ctx, VersionMeta v) {
        var caller = Params.caller(ctx);
        if (!caller.mayTouch(v.subject())) {
            throw new RegistryException(ErrorCode.FORBIDDEN,
                    "Forbidden: " + caller.name() + " may not act on subject '" + v.subject() + "'");
        }
        return v;
    }

    private static boolean dereference(RoutingContext ctx) {
        String refs = ctx.queryParams().get("references");
        if (refs == null || refs.isEmpty() || refs.equals("PRESERVE")) {
            return false;
        }
        if (refs.equals("DEREFERENCE")) {
            return true;
        }
        throw new RegistryException(ErrorCode.BAD_REQUEST, "references must be PRESERVE or DEREFERENCE"
                + (refs.equals("REWRITE") ? " (Quire does not rewrite references)" : ""));
    }

    private static SchemaId contentId(RoutingContext ctx) {
        return SchemaId.of(longParam(ctx, "id"));
    }

    private static long longParam(RoutingContext ctx, String name) {
        String raw = ctx.pathParam(name);
        try {
            long v = Long.parseLong(raw);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new RegistryException(ErrorCode.BAD_REQUEST, "'" + Messages.clean(raw) + "' is not an id");
    }

    private static String hash(RoutingContext ctx) {
        String h = ctx.pathParam("hash").toLowerCase(Locale.ROOT);
        if (h.length() != 64 || !h.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "a content hash is 64 hex digits (SHA-256)");
        }
        return h;
    }

    private static int number(RoutingContext ctx, String name, int fallback) {
        String raw = ctx.queryParams().get(name);
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(raw);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new RegistryException(ErrorCode.BAD_REQUEST, name + " must be a number ≥ 0");
    }

    private static Artifacts.IfExists ifExists(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Artifacts.IfExists.FAIL;
        }
        try {
            return Artifacts.IfExists.valueOf(raw);
        } catch (IllegalArgumentException e) {
            throw new RegistryException(ErrorCode.BAD_REQUEST,
                    "ifExists must be FAIL, CREATE_VERSION or FIND_OR_CREATE_VERSION");
        }
    }

    /** Apicurio's artifact type of a schema: AVRO, JSON or PROTOBUF (the types Quire stores); AVRO when absent. */
    private static SchemaType type(String artifactType) {
        if (artifactType == null || artifactType.isEmpty()) {
            return SchemaType.AVRO;
        }
        try {
            return SchemaType.valueOf(artifactType);
        } catch (IllegalArgumentException e) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "artifactType " + Messages.clean(artifactType)
                    + " is not served: Quire stores AVRO, JSON and PROTOBUF");
        }
    }

    /** Apicurio's references (artifact and version in the default group) as the Confluent API's. */
    private static List<SchemaReference> references(List<ArtifactReference> refs) {
        if (refs == null) {
            return List.of();
        }
        List<SchemaReference> out = new ArrayList<>();
        for (ArtifactReference r : refs) {
            if (r == null || r.name() == null || r.artifactId() == null) {
                throw new RegistryException(ErrorCode.BAD_REQUEST, "a reference needs a name and an artifactId");
            }
            Artifacts.subject(r.groupId(), r.artifactId());
            int version;
            try {
                version = Integer.parseInt(r.version());
            } catch (NumberFormatException e) {
                throw new RegistryException(ErrorCode.BAD_REQUEST, "reference " + Messages.clean(r.name())
                        + " must name a version number, not '" + Messages.clean(String.valueOf(r.version())) + "'");
            }
            out.add(new SchemaReference(r.name(), Subject.of(r.artifactId()), Version.of(version)));
        }
        return out;
    }

    // ---- bodies

    private static void sendContent(RoutingContext ctx, Content c) {
        String type = c.type() == SchemaType.PROTOBUF ? "application/x-protobuf" : "application/json";
        ctx.response().putHeader("Content-Type", type).end(c.text());
    }

    private static void sendReferences(RoutingContext ctx, Content c) {
        List<Object> out = new ArrayList<>();
        for (SchemaReference r : c.references()) {
            out.add(new ArtifactReference(null, r.subject().name(), r.version().toString(), r.name()));
        }
        send(ctx, 200, out);
    }

    private static void send(RoutingContext ctx, int status, Object value) {
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(Buffer.buffer(ApiJson.bytes(value)));
    }

    /**
     * Failures under {@code /apis/registry/v3} as Apicurio's {@code ProblemDetails}: a refusal's
     * status and the name of the exception Apicurio raises for it; anything unexpected goes on to
     * the node's own failure handler (logged, answered with a reference).
     */
    static Handler<RoutingContext> problems() {
        return ctx -> {
            Throwable f = ctx.failure();
            while (f instanceof CompletionException && f.getCause() != null) {
                f = f.getCause();
            }
            if (ctx.response().ended() || ctx.response().closed()) {
                ctx.next();
                return;
            }
            if (f instanceof Artifacts.Problem p) {
                problem(ctx, p.status(), p.name(), p.getMessage(), null);
            } else if (f instanceof RegistryException r) {
                String message = Messages.clean(r.getMessage());
                switch (r.error()) {
                    case SUBJECT_NOT_FOUND -> problem(ctx, 404, "ArtifactNotFoundException", message, null);
                    case VERSION_NOT_FOUND -> problem(ctx, 404, "VersionNotFoundException", message, null);
                    case SCHEMA_NOT_FOUND -> problem(ctx, 404, "ContentNotFoundException", message, null);
                    case INCOMPATIBLE_SCHEMA, INVALID_SCHEMA, INVALID_SUBJECT, SCHEMA_TOO_LARGE, INVALID_RULESET ->
                            problem(ctx, 400, "RuleViolationException", message, message);
                    case UNAUTHORIZED -> problem(ctx, 401, "NotAuthorizedException", message, null);
                    case FORBIDDEN -> problem(ctx, 403, "ForbiddenException", message, null);
                    case BAD_REQUEST -> problem(ctx, 400, "BadRequestException", message, null);
                    default -> problem(ctx, r.error().httpStatus, "RegistryException", message, null);
                }
            } else if (f instanceof InvalidSchemaException e) {
                String message = Messages.clean(e.getMessage());
                problem(ctx, 400, "RuleViolationException", message, message);
            } else if (f == null || f instanceof HttpException h && h.getStatusCode() < 500) {
                int status = f == null ? ctx.statusCode() : ((HttpException) f).getStatusCode();
                if (status >= 400 && status < 500) {
                    problem(ctx, status, status == 404 ? "NotFoundException" : "BadRequestException", "HTTP " + status,
                            null);
                } else {
                    ctx.next();
                }
            } else {
                ctx.next();
            }
        };
    }

    private static void problem(RoutingContext ctx, int status, String name, String title, String cause) {
        send(ctx, status, new ApicurioBodies.ProblemDetails(cause == null ? null
                : List.of(new ApicurioBodies.ProblemCause(cause, "")), name + ": " + title, title, status, name));
    }
}
