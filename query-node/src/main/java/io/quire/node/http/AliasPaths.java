package io.quire.node.http;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.quire.journal.model.Subject;
import io.quire.node.service.ViewAccess;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Map;

/**
 * Subject aliases ({@code alias} in a subject's config, as Confluent's alias filter reads it): a
 * request naming an aliased subject after {@code subjects/} in its path, or in the {@code subject}
 * parameter of {@code /schemas/ids/…}, is rerouted once to the subject the alias names (read in
 * the aliased subject's context unless it names its own). Runs after {@link ContextPaths}.
 */
final class AliasPaths implements Handler<RoutingContext> {

    private static final String DONE = "quire.aliased";

    private final ViewAccess access;

    AliasPaths(ViewAccess access) {
        this.access = access;
    }

    @Override
    public void handle(RoutingContext ctx) {
        String path = ctx.request().path();
        if (ctx.get(DONE) != null || path == null || !path.contains("subjects/") && !path.startsWith("/schemas/ids")) {
            ctx.next();
            return;
        }
        boolean changed = false;
        String[] parts = path.split("/", -1);
        for (int i = 0; i < parts.length - 1; i++) {
            if (parts[i].equals("subjects") && !parts[i + 1].isEmpty()) {
                String target = target(Params.decodeSegment(parts[i + 1]));
                if (target != null) {
                    parts[i + 1] = Params.encodeSegment(target);
                    changed = true;
                }
            }
        }
        String query = ctx.request().query();
        if (path.startsWith("/schemas/ids") && query != null) {
            Map<String, List<String>> params = new QueryStringDecoder(ctx.request().uri()).parameters();
            List<String> subject = params.get("subject");
            String target = subject == null || subject.isEmpty() ? null : target(subject.get(0));
            if (target != null) {
                query = Params.query(params, "subject", target);
                changed = true;
            }
        }
        if (!changed) {
            ctx.next();
            return;
        }
        ctx.put(DONE, Boolean.TRUE);
        String rerouted = String.join("/", parts);
        ctx.reroute(query == null || query.isEmpty() ? rerouted : rerouted + "?" + query);
    }

    /** The subject an alias points to, or null when {@code name} is no aliased subject. */
    private String target(String name) {
        if (!Subject.isValid(name)) {
            return null;
        }
        Subject s = Subject.of(name);
        String alias = access.view().subjectFields(s).alias();
        if (alias == null || alias.isEmpty() || !Subject.isValid(alias)) {
            return null;
        }
        return s.context().qualify(Subject.of(alias)).name();
    }
}
