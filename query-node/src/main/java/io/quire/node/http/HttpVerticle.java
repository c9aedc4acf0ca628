package io.quire.node.http;

import io.quire.node.config.QuireConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** One HTTP server instance per event loop, all on the same port. */
public final class HttpVerticle extends VerticleBase {

    private final HttpApi.Deps deps;
    private final String host;
    private final int port;
    private final QuireConfig.Security security;
    private final IntConsumer boundPort;
    private final long shutdownTimeoutMs;
    private HttpServer server;

    /** {@code boundPort} is told the port the server listens on (the one chosen when {@code port} is 0). */
    public HttpVerticle(HttpApi.Deps deps, String host, int port, QuireConfig.Security security,
                        IntConsumer boundPort) {
        this(deps, host, port, security, boundPort, 0);
    }

    /**
     * As above; undeployed, the server stops accepting connections and gives the requests in flight
     * up to {@code shutdownTimeoutMs} to be answered before it closes their connections.
     */
    public HttpVerticle(HttpApi.Deps deps, String host, int port, QuireConfig.Security security,
                        IntConsumer boundPort, long shutdownTimeoutMs) {
        this.shutdownTimeoutMs = shutdownTimeoutMs;
        this.deps = deps;
        this.host = host;
        this.port = port;
        this.security = security;
        this.boundPort = boundPort;
    }

    @Override
    public Future<?> start() {
        // No HTTP/2 over clear text: its detection sets the pipeline up on the first bytes, after
        // LingeringClose would have to see them (clients of the API speak HTTP/1.1).
        // No WebSocket compression either: the API has no WebSocket, and offering it puts an
        // extension handler in every connection's pipeline that looks at each request and answer.
        HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port).setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(false).setPerMessageWebSocketCompressionSupported(false)
                .setPerFrameWebSocketCompressionSupported(false);
        if (security.tls()) {
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions().setCertPath(security.tlsCertFile())
                    .setKeyPath(security.tlsKeyFile()));
        }
        return vertx.createHttpServer(options)
                .connectionHandler(LingeringClose::install)
                .requestHandler(HttpApi.guarded(HttpApi.router(vertx, deps), deps))
                .invalidRequestHandler(HttpApi::invalidRequest)
                .listen()
                .onSuccess(s -> {
                    server = s;
                    boundPort.accept(s.actualPort());
                });
    }

    /**
     * Stops as a graceful shutdown needs: the listening socket is closed first, so that a new
     * connection is refused (and its client tries another node) instead of being accepted and then
     * dropped; the connections already accepted get {@link #SETTLE_MILLIS} to deliver and be answered;
     * then Vert.x's shutdown closes the idle ones and waits for the requests in flight, up to the
     * timeout.
     */
    @Override
    public Future<?> stop() {
        if (server == null) {
            return Future.succeededFuture();
        }
        boolean closed = Listener.close(server);
        Promise<Void> settled = Promise.promise();
        vertx.setTimer(closed ? SETTLE_MILLIS : 1, t -> settled.complete());
        return settled.future().compose(v -> server.shutdown(shutdownTimeoutMs, TimeUnit.MILLISECONDS));
    }

    /** How long connections accepted before the listener closed have to send their request. */
    static final long SETTLE_MILLIS = 250;
}
