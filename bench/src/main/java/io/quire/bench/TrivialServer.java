package io.quire.bench;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;

/**
 * The machine's HTTP limit for this load generator: a Vert.x server that answers
 * {@code GET /schemas/ids/{id}} with a fixed body of the same size as Quire's, one instance per core.
 * {@code java -cp quire-bench.jar io.quire.bench.TrivialServer PORT}
 */
public final class TrivialServer extends VerticleBase {

    static final Buffer BODY = Buffer.buffer("{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"Bench\\\","
            + "\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\"},{\\\"name\\\":\\\"payload\\\","
            + "\\\"type\\\":\\\"string\\\"}]}\"}");

    private final int port;

    TrivialServer(int port) {
        this.port = port;
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer().requestHandler(req -> {
            if (req.path().startsWith("/schemas/ids/")) {
                req.response().putHeader("Content-Type", "application/vnd.schemaregistry.v1+json").end(BODY);
            } else {
                req.response().setStatusCode(404).end();
            }
        }).listen(port);
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        Vertx vertx = Vertx.vertx();
        vertx.deployVerticle(() -> new TrivialServer(port),
                new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors()))
                .onSuccess(id -> System.out.println("trivial server on " + port))
                .onFailure(err -> {
                    err.printStackTrace();
                    System.exit(1);
                });
    }
}
