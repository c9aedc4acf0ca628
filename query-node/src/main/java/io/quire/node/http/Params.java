package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.node.security.Principal;
import io.quire.node.error.RegistryException;
import io.quire.node.service.VersionSpec;
import io.vertx.ext.web.RoutingContext;

/** Path and query parameters as the Confluent API spells them. */
final class Params {

    private Params() {
    }

    static String subject(RoutingContext ctx) {
        return ctx.pathParam("subject");
    }

    static VersionSpec version(RoutingContext ctx) {
        return VersionSpec.parse(ctx.pathParam("version"));
    }

    static long id(RoutingContext ctx) {
        try {
            return Long.parseLong(ctx.pathParam("id"));
        } catch (NumberFormatException e) {
            throw RegistryException.of(ErrorCode.NOT_FOUND);
        }
    }

    static boolean flag(RoutingContext ctx, String name) {
        return Boolean.parseBoolean(ctx.queryParams().get(name));
    }

    static String text(RoutingContext ctx, String name) {
        return ctx.queryParams().get(name);
    }

    /** The caller's name, as the journal records it. */
    static String principal(RoutingContext ctx) {
        return caller(ctx).name();
    }

    static Principal caller(RoutingContext ctx) {
        Principal p = ctx.get(AuthHandler.PRINCIPAL);
        return p == null ? Principal.ANONYMOUS_ADMIN : p;
    }
}
