package io.quire.node.http;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.quire.journal.model.Context;
import io.quire.journal.view.RegistryView;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code /contexts/{context}/…} prefix: every resource under it is the same resource with its
 * subjects qualified by the context, as Confluent's registry reads such a path. The request is
 * rerouted before anything else sees it:
 * <ul>
 *   <li>the segment after {@code subjects} (wherever it appears) and after a leading {@code config}
 *       or {@code mode} gets the context's prefix ({@code orders} → {@code :.ctx:orders}) unless it
 *       names a context already; a bare {@code config} or {@code mode} becomes the context's own
 *       ({@code /config/:.ctx:});</li>
 *   <li>{@code schemas/ids/…} gets {@code subject=:.ctx:…}, so the id is read in the context;</li>
 *   <li>the lists {@code /subjects} and {@code /schemas} get {@code subjectPrefix=:.ctx:…}.</li>
 * </ul>
 * {@code /contexts/{context}} itself (its delete) is left alone.
 */
final class ContextPaths {

    private ContextPaths() {
    }

    static void reroute(RoutingContext ctx) {
        String path = ctx.request().path();
        if (path == null || !path.startsWith("/contexts/")) {
            ctx.next();
            return;
        }
        String[] parts = path.substring("/contexts/".length()).split("/", -1);
        if (parts.length < 2 || parts[1].isEmpty() && parts.length == 2) {
            ctx.next(); // the context itself
            return;
        }
        Context context;
        try {
            context = Context.parse(Params.decodeSegment(parts[0]));
        } catch (IllegalArgumentException e) {
            ApiJson.error(ctx.response(), 400, 400, e.getMessage());
            return;
        }
        List<String> rest = new ArrayList<>(List.of(parts).subList(1, parts.length));
        String prefix = context.prefix();
        boolean rootSettings = rest.get(0).equals("config") || rest.get(0).equals("mode");
        for (int i = 0; i < rest.size() - 1; i++) {
            if ((rest.get(i).equals("subjects") || i == 0 && rootSettings) && !namesContext(rest.get(i + 1))) {
                rest.set(i + 1, Params.encodeSegment(prefix) + rest.get(i + 1));
                i++;
            }
        }
        if (rootSettings && rest.size() == 1 && !context.isDefault()) {
            rest.add(Params.encodeSegment(prefix));
        }
        String target = "/" + String.join("/", rest);
        // Parsed here, not through ctx.queryParams(): the routing context keeps the first parse across a reroute.
        Map<String, List<String>> params = new QueryStringDecoder(ctx.request().uri()).parameters();
        String joined = String.join("/", rest);
        String name = joined.startsWith("schemas/ids") ? "subject"
                : joined.equals("schemas") || joined.equals("subjects") ? "subjectPrefix" : null;
        String query = name == null ? Params.query(params, null, null)
                : Params.query(params, name, qualified(params.get(name), prefix));
        ctx.reroute(query.isEmpty() ? target : target + "?" + query);
    }

    /** A parameter's value qualified by the context, unless it names one itself. */
    private static String qualified(List<String> all, String prefix) {
        String given = all == null || all.isEmpty() ? null : all.get(0);
        return given == null ? prefix : namesContext(given) ? given : prefix + given;
    }

    private static boolean namesContext(String raw) {
        String s = Params.decodeSegment(raw);
        return s.startsWith(":.") || s.startsWith(RegistryView.ANY_CONTEXT);
    }
}
