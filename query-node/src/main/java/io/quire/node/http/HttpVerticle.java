package io.quire.node.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;

/** One HTTP server instance per event loop, all on the same port. */
public final class HttpVerticle extends VerticleBase {

    private final HttpApi.Deps deps;
    private final String host;
    private final int port;

    public HttpVerticle(HttpApi.Deps deps, String host, int port) {
        this.deps = deps;
        this.host = host;
        this.port = port;
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port).setTcpNoDelay(true))
                .requestHandler(HttpApi.router(vertx, deps))
                .listen();
    }
}
