package io.quire.node.http;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.node.error.RegistryException;
import io.quire.node.security.Principal;
import io.quire.node.service.VersionSpec;
import io.vertx.ext.web.RoutingContext;

/** Path and query parameters as the Confluent API spells them. */
final class Params {

    private Params() {
    }

    static Subject subject(RoutingContext ctx) {
        return Subject.of(ctx.pathParam("subject"));
    }

    /** The subject of a route that also has a global form ({@code /config}, {@code /mode}): null there. */
    static Subject subjectOrGlobal(RoutingContext ctx) {
        String name = ctx.pathParam("subject");
        return name == null ? null : Subject.of(name);
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

    /** A raw path segment or query value, percent-decoded ('+' stays a plus, as in a path). */
    static String decodeSegment(String raw) {
        return java.net.URLDecoder.decode(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Text as a path segment or query value (':' kept readable, as subject names carry it). */
    static String encodeSegment(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20")
                .replace("%3A", ":");
    }

    /**
     * A query string of {@code params} with {@code name} set to {@code value} (first; the given
     * values of {@code name} dropped); {@code name} null: the params as they are.
     */
    static String query(java.util.Map<String, java.util.List<String>> params, String name, String value) {
        StringBuilder q = new StringBuilder();
        if (name != null) {
            q.append(encodeSegment(name)).append('=').append(encodeSegment(value));
        }
        params.forEach((n, values) -> {
            if (!n.equals(name)) {
                for (String v : values) {
                    q.append(q.length() == 0 ? "" : "&").append(encodeSegment(n)).append('=').append(encodeSegment(v));
                }
            }
        });
        return q.toString();
    }

    /** {@code referenceFormat=qualified}: references name their subjects with their context. */
    static boolean qualifiedReferences(RoutingContext ctx) {
        return "qualified".equalsIgnoreCase(ctx.queryParams().get("referenceFormat"));
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
