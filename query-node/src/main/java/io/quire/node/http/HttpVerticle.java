package io.quire.node.http;

import io.quire.node.config.QuireConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;

/** One HTTP server instance per event loop, all on the same port. */
public final class HttpVerticle extends VerticleBase {

    private final HttpApi.Deps deps;
    private final String host;
    private final int port;
    private final QuireConfig.Security security;
    private final java.util.function.IntConsumer boundPort;

    /** {@code boundPort} is told the port the server listens on (the one chosen when {@code port} is 0). */
    public HttpVerticle(HttpApi.Deps deps, String host, int port, QuireConfig.Security security,
                        java.util.function.IntConsumer boundPort) {
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
        HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port).setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(false);
        if (security.tls()) {
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions().setCertPath(security.tlsCertFile())
                    .setKeyPath(security.tlsKeyFile()));
        }
        return vertx.createHttpServer(options)
                .connectionHandler(LingeringClose::install)
                .requestHandler(HttpApi.guarded(HttpApi.router(vertx, deps)))
                .invalidRequestHandler(HttpApi::invalidRequest)
                .listen()
                .onSuccess(server -> boundPort.accept(server.actualPort()));
    }
}
