package io.quire.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.net.NetServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The load generator against a real local server, and the latency proxy against a real echo server. */
class ClosedLoopTest {

    final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void countsSuccessesErrorsAndTheWarmUpSeparately() throws Exception {
        int port = freePort();
        vertx.deployVerticle(() -> new TrivialServer(port), new DeploymentOptions())
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        HttpClient client = vertx.createHttpClient();
        Workloads.Endpoint e = new Workloads.Endpoint("127.0.0.1", port);
        Result ok = ClosedLoop.run(vertx, "t", "reads", 4, Duration.ofMillis(500), Duration.ofSeconds(2),
                Workloads.readById(client, e, new long[] {1, 2}, false));
        assertTrue(ok.ok() > 100, "requests answered: " + ok.ok());
        assertEquals(0, ok.errorCount());
        long series = 0;
        for (long s : ok.perSecond()) {
            series += s;
        }
        assertTrue(Math.abs(series - ok.ok()) <= 8, "per-second series adds up: " + series + " vs " + ok.ok());
        assertTrue(ok.p50() > 0 && ok.p50() <= ok.p99() && ok.p99() <= ok.max());

        Result missing = ClosedLoop.run(vertx, "t", "404", 2, Duration.ofMillis(200), Duration.ofSeconds(1),
                user -> Workloads.call(client, e, io.vertx.core.http.HttpMethod.GET, "/nope", null, null, null)
                        .map(Workloads.Answer::status));
        assertEquals(0, missing.ok());
        assertTrue(missing.errors().get("404") > 0, missing.errors().toString());
        Result failing = ClosedLoop.run(vertx, "t", "down", 1, Duration.ofMillis(100), Duration.ofMillis(500),
                user -> Future.failedFuture("connection refused"));
        assertTrue(failing.errors().get("-1") > 0);
    }

    @Test
    void theWarmUpGoesOnUntilTheServerSettlesOrTheLimit() throws Exception {
        int port = freePort();
        vertx.deployVerticle(() -> new TrivialServer(port), new DeploymentOptions())
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        HttpClient client = vertx.createHttpClient();
        Workloads.Endpoint e = new Workloads.Endpoint("127.0.0.1", port);
        java.util.concurrent.atomic.AtomicInteger watched = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicLong windowOpened = new java.util.concurrent.atomic.AtomicLong();
        ClosedLoop.Settle thirdTime = new ClosedLoop.Settle() {
            @Override
            public boolean watch() throws InterruptedException {
                Thread.sleep(300);
                return watched.incrementAndGet() == 3;
            }

            @Override
            public Duration limit() {
                return Duration.ofSeconds(30);
            }

            @Override
            public void measuring() {
                windowOpened.set(System.nanoTime());
            }
        };
        long t0 = System.nanoTime();
        // A warm-up of a second first: a cold client's first requests can take that long on a busy machine.
        Result r = ClosedLoop.run(vertx, "t", "reads", 2, Duration.ofSeconds(1), thirdTime, Duration.ofSeconds(2),
                Workloads.readById(client, e, new long[] {1}, false));
        assertEquals(3, watched.get());
        double warmed = (Double) r.extra().get("warmupSeconds");
        assertTrue(warmed >= 1.9 && warmed < 8, "1 s + three watches of 0.3 s: " + warmed);
        assertTrue((windowOpened.get() - t0) / 1e9 >= 1.9, "the window opened after the third watch");
        assertTrue(r.ok() > 0 && r.seconds() >= 1.9 && r.seconds() < 3, r.ok() + " in " + r.seconds() + ", errors " + r.errors());

        ClosedLoop.Settle never = new ClosedLoop.Settle() {
            @Override
            public boolean watch() throws InterruptedException {
                Thread.sleep(200);
                return false;
            }

            @Override
            public Duration limit() {
                return Duration.ofMillis(700);
            }
        };
        Result bounded = ClosedLoop.run(vertx, "t", "reads", 2, Duration.ofMillis(100), never, Duration.ofMillis(1000),
                Workloads.readById(client, e, new long[] {1}, false));
        double boundedWarm = (Double) bounded.extra().get("warmupSeconds");
        assertTrue(boundedWarm >= 0.8 && boundedWarm < 2, "stopped at the limit: " + boundedWarm);
        assertTrue(bounded.ok() > 0, bounded.ok() + ", errors " + bounded.errors());
    }

    @Test
    void theProxyDelaysEachRoundTripByTheConfiguredLatency() throws Exception {
        int echoPort = freePort();
        NetServer echo = vertx.createNetServer().connectHandler(s -> s.handler(s::write));
        echo.listen(echoPort).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        int proxyPort = freePort();
        new LatencyProxy(vertx, 40, 0).listen(proxyPort, "127.0.0.1", echoPort);
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", proxyPort)) {
            s.setSoTimeout(5_000);
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                s.getOutputStream().write(new byte[] {(byte) i});
                assertEquals(i, s.getInputStream().read());
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms >= 38 && ms < 400, "round trip " + ms + " ms through a 40 ms proxy");
            }
        }
    }
}
