package io.quire.node.http;

import io.quire.journal.model.Context;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.node.service.ViewAccess;
import io.vertx.ext.web.RoutingContext;

/**
 * What a request names, resolved once when its route matches and carried by the routing context:
 * the context of a {@code /contexts/{context}/…} path, the subject of the path, and the subject
 * and subject prefix of its query, each as the handlers must read it. Nothing rewrites the path or
 * routes the request again.
 *
 * <ul>
 *   <li>Under a context, a subject that names no context of its own is qualified by it
 *       ({@code orders} → {@code :.ctx:orders}), in the path after {@code subjects/}, {@code config/}
 *       or {@code mode/}, in {@code ?subject=} of a read by id and in {@code ?subjectPrefix=} of the
 *       lists (the context's prefix when the parameter is absent); a bare {@code config} or
 *       {@code mode} is the context's own settings subject.</li>
 *   <li>A subject after {@code subjects/}, and {@code ?subject=} of a read by id, whose config has an
 *       {@code alias} reads as the subject the alias names, in the aliased subject's context unless
 *       the alias names its own (Confluent's alias filter). Once: an alias of an alias is not followed.</li>
 * </ul>
 *
 * @param context     the path's context, null outside {@code /contexts/{context}/…}
 * @param subject     the path's subject as resolved, or null (no subject, or a route that reads its own
 *                    {@code :subject} unresolved: keys and Apicurio's artifacts)
 * @param subjectParam {@code ?subject=} of a read by id, as resolved, or null
 * @param subjectPrefix {@code ?subjectPrefix=} of a list, as resolved, or null
 */
record Target(Context context, String subject, String subjectParam, String subjectPrefix) {

    static final String KEY = "quire.target";

    /** Nothing to resolve: a route without a subject, outside a context. */
    static final Target NONE = new Target(null, null, null, null);

    /** What a route's path tells about the subjects its requests name; derived from the path. */
    enum Kind {
        /** {@code …/subjects/:subject…}: qualified and aliased. */
        SUBJECT,
        /** {@code /config[/:subject]}, {@code /mode[/:subject]}: qualified, never aliased. */
        SETTINGS,
        /** {@code /schemas/ids/…}: {@code ?subject=} qualified and aliased. */
        READ_BY_ID,
        /** {@code /subjects}, {@code /schemas}: {@code ?subjectPrefix=} qualified. */
        LIST,
        NOTHING;

        static Kind of(String path) {
            if (path.contains("/subjects/:subject")) {
                return SUBJECT;
            }
            if (path.equals("/config") || path.equals("/mode") || path.startsWith("/config/:")
                    || path.startsWith("/mode/:")) {
                return SETTINGS;
            }
            if (path.startsWith("/schemas/ids/")) {
                return READ_BY_ID;
            }
            return path.equals("/subjects") || path.equals("/schemas") ? LIST : NOTHING;
        }
    }

    /** The request's target; {@link #NONE} before its route matched. */
    static Target of(RoutingContext ctx) {
        Target t = ctx.get(KEY);
        return t == null ? NONE : t;
    }

    /** Resolves what the requests of one kind of route name. */
    static final class Resolver {

        private final ViewAccess access;

        Resolver(ViewAccess access) {
            this.access = access;
        }

        /**
         * Resolves the request's target and puts it on the routing context (nothing, for {@link #NONE}).
         *
         * @throws IllegalArgumentException for a context name that cannot be one (a colon inside)
         */
        void resolve(RoutingContext ctx, Kind kind) {
            String rawContext = ctx.pathParam("context");
            Context context = rawContext == null ? null : Context.parse(rawContext);
            Target t = switch (kind) {
                case SUBJECT -> new Target(context, aliased(qualified(ctx.pathParam("subject"), context)), null, null);
                case SETTINGS -> new Target(context, settingsSubject(ctx.pathParam("subject"), context), null, null);
                case READ_BY_ID -> {
                    String given = ctx.request().query() == null ? null : ctx.queryParams().get("subject");
                    yield context == null && given == null ? NONE
                            : new Target(context, null, aliased(qualifiedParam(given, context)), null);
                }
                case LIST -> context == null ? NONE : new Target(context, null, null,
                        qualifiedParam(ctx.queryParams().get("subjectPrefix"), context));
                case NOTHING -> context == null ? NONE : new Target(context, null, null, null);
            };
            if (t != NONE) {
                ctx.put(KEY, t);
            }
        }

        private static String qualified(String name, Context context) {
            return context == null || name == null || namesContext(name) ? name : context.prefix() + name;
        }

        /** A query parameter under a context: qualified, and the context's prefix when absent. */
        private static String qualifiedParam(String given, Context context) {
            if (context == null) {
                return given;
            }
            return given == null ? context.prefix() : qualified(given, context);
        }

        private static String settingsSubject(String name, Context context) {
            if (name == null) {
                return context == null || context.isDefault() ? null : context.prefix();
            }
            return qualified(name, context);
        }

        private static boolean namesContext(String name) {
            return name.startsWith(":.") || name.startsWith(RegistryView.ANY_CONTEXT);
        }

        /** The subject {@code name}'s alias names, or {@code name} itself when it has none. */
        private String aliased(String name) {
            if (name == null || !Subject.isValid(name)) {
                return name;
            }
            Subject s = Subject.of(name);
            String alias = access.view().config().subjectFields(s).alias();
            if (alias == null || alias.isEmpty() || !Subject.isValid(alias)) {
                return name;
            }
            return s.context().qualify(Subject.of(alias)).name();
        }
    }
}
