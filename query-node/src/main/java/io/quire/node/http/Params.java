package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.node.error.RegistryException;
import io.quire.node.security.Caller;
import io.quire.node.service.VersionSpec;
import io.vertx.ext.web.RoutingContext;

/** Path and query parameters as the Confluent API spells them. */
final class Params {

    private Params() {
    }

    /** The path's subject as its {@link Target} resolved it (qualified by the path's context, aliased). */
    static Subject subject(RoutingContext ctx) {
        return Subject.of(subjectName(ctx));
    }

    /**
     * The subject of a route that also has a global form ({@code /config}, {@code /mode}): null there,
     * the context's own settings subject under {@code /contexts/{context}}.
     */
    static Subject subjectOrGlobal(RoutingContext ctx) {
        String name = subjectName(ctx);
        return name == null ? null : Subject.of(name);
    }

    /** The path's subject, resolved when the route resolves one, else as the path gives it (or null). */
    static String subjectName(RoutingContext ctx) {
        String resolved = Target.of(ctx).subject();
        return resolved != null ? resolved : ctx.pathParam("subject");
    }

    /** {@code ?subject=} of a read by id, resolved (qualified by the path's context, aliased). */
    static String subjectParam(RoutingContext ctx) {
        return Target.of(ctx).subjectParam();
    }

    /** {@code ?subjectPrefix=} of a list, qualified by the path's context. */
    static String subjectPrefix(RoutingContext ctx) {
        Target t = Target.of(ctx);
        return t.context() == null ? ctx.queryParams().get("subjectPrefix") : t.subjectPrefix();
    }

    static VersionSpec version(RoutingContext ctx) {
        return VersionSpec.parse(ctx.pathParam("version"));
    }

    static SchemaId id(RoutingContext ctx) {
        try {
            return SchemaId.of(Long.parseLong(ctx.pathParam("id")));
        } catch (NumberFormatException e) {
            throw RegistryException.of(ErrorCode.NOT_FOUND);
        }
    }

    static boolean flag(RoutingContext ctx, String name) {
        return Boolean.parseBoolean(ctx.queryParams().get(name));
    }

    /** {@code referenceFormat=qualified}: references name their subjects with their context. */
    static boolean qualifiedReferences(RoutingContext ctx) {
        return "qualified".equalsIgnoreCase(ctx.queryParams().get("referenceFormat"));
    }

    static String text(RoutingContext ctx, String name) {
        return ctx.queryParams().get(name);
    }

    /** The caller's name, as the journal records it. */
    static Principal principal(RoutingContext ctx) {
        return caller(ctx).principal();
    }

    static Caller caller(RoutingContext ctx) {
        Caller p = ctx.get(AuthHandler.PRINCIPAL);
        return p == null ? Caller.ANONYMOUS_ADMIN : p;
    }
}
