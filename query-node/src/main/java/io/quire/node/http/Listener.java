package io.quire.node.http;

import io.netty.channel.Channel;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes the listening socket of a Vert.x HTTP server while its connections stay open. Vert.x 5's
 * own shutdown takes the server's handler away before its listening socket is closed, and closes
 * at once any connection accepted in between (clients see their request dropped, not refused).
 * Vert.x has no public hook for the socket: its fields are read by name, and a Vert.x that lacks
 * them leaves the close to its own shutdown (false).
 */
final class Listener {

    private static final Logger LOG = LoggerFactory.getLogger(Listener.class);

    private Listener() {
    }

    static boolean close(HttpServer server) {
        try {
            Object tcp = field(server, "tcpServer");
            Object actual = field(tcp, "actualServer");
            @SuppressWarnings("unchecked")
            Future<Channel> bound = (Future<Channel>) field(actual, "bindFuture");
            if (bound == null || !bound.succeeded()) {
                return false;
            }
            bound.result().close().syncUninterruptibly();
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("cannot close the HTTP listener ahead of the shutdown ({}); Vert.x closes it", e.toString());
            return false;
        }
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(owner);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name + " in " + owner.getClass().getName());
    }
}
