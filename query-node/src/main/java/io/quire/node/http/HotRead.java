package io.quire.node.http;

import io.micrometer.core.instrument.Timer;
import io.netty.buffer.Unpooled;
import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaId;
import io.quire.node.service.ViewAccess;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /schemas/ids/{id}} as deserializers send it, answered before the router: the request
 * nearly every consumed message costs a registry whose clients cache nothing, and one the router's
 * chain (the gate, the timer, the body, sign-in, read-your-writes, route matching and the route's
 * guard) spends 3.2 µs of a read's 21.1 µs on in a profile (ADR 0019) when none of them has
 * anything to do.
 *
 * <p>It answers only when each of those would have passed the request straight on: no sign-in is
 * configured (every caller may read), the view is open and the node not stopping, the request has
 * no query, no body and no {@value ReadYourWrites#HEADER}, its path is the route's with an id of
 * digits only, and the view holds that id in the default context. Anything else goes to the router
 * unchanged, which answers it as it always has (an unknown id: 40403 there). Its answer is the
 * router's byte for byte, and it is counted under the route's own timer. docs/adr/0019.
 */
final class HotRead {

    static final String ROUTE = "/schemas/ids/:id";
    private static final String PREFIX = "/schemas/ids/";
    /** Longer runs of digits may not fit a long: the router answers those. */
    private static final int MAX_DIGITS = 18;

    private final ViewAccess access;
    private final NodeStatus status;
    private final Timer served;

    private HotRead(ViewAccess access, NodeStatus status, Timer served) {
        this.access = access;
        this.status = status;
        this.served = served;
    }

    /** The fast path of a node's API, or null when sign-in is configured (the router checks every caller). */
    static HotRead of(HttpApi.Deps d) {
        return d.authenticator() != null ? null
                : new HotRead(d.access(), d.status(), d.metrics().httpTimer("GET", ROUTE, 200));
    }

    /** Whether the request was answered here; false leaves it untouched for the router. */
    boolean served(HttpServerRequest req) {
        if (req.method() != HttpMethod.GET || req.query() != null || !access.isOpen() || status.stopping()) {
            return false;
        }
        long id = id(req.path());
        if (id < 0) {
            return false;
        }
        MultiMap headers = req.headers();
        if (headers.contains(ReadYourWrites.HEADER) || headers.contains("Transfer-Encoding")
                || headers.contains("Content-Length") && !"0".equals(headers.get("Content-Length"))) {
            return false;
        }
        long start = System.nanoTime();
        byte[] body;
        try {
            body = access.view().schemaBytes(Context.DEFAULT, SchemaId.of(id));
        } catch (RuntimeException e) { // the view closing under the read: the router reports it
            return false;
        }
        if (body == null) {
            return false;
        }
        // the body wrapped, not copied: the view hands out arrays that nobody changes (BodyFile, ViewStore)
        req.response().putHeader("Content-Type", ApiJson.CONTENT_TYPE).end(BufferInternal.buffer(Unpooled.wrappedBuffer(body)));
        served.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return true;
    }

    /** The id of a path {@code /schemas/ids/<digits>}, or -1 for any other path. */
    static long id(String path) {
        if (path == null || !path.startsWith(PREFIX)) {
            return -1;
        }
        int n = path.length() - PREFIX.length();
        if (n < 1 || n > MAX_DIGITS) {
            return -1;
        }
        long id = 0;
        for (int i = PREFIX.length(); i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            id = id * 10 + (c - '0');
        }
        return id;
    }
}
