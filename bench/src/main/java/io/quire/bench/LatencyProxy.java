package io.quire.bench;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A TCP proxy that delays every chunk by half the configured round trip (± half the jitter) in
 * each direction, keeping order: the storage latency of the capacity guide (15 ms ± 5 ms), put
 * between the registry and its storage.
 * {@code java -cp quire-bench.jar io.quire.bench.LatencyProxy LISTEN_PORT TARGET_PORT RTT_MS JITTER_MS}
 */
public final class LatencyProxy {

    private final Vertx vertx;
    private final double oneWayMs;
    private final double jitterMs;

    public LatencyProxy(Vertx vertx, double roundTripMs, double jitterMs) {
        this.vertx = vertx;
        this.oneWayMs = roundTripMs / 2;
        this.jitterMs = jitterMs / 2;
    }

    public NetServer listen(int port, String targetHost, int targetPort) {
        NetServer server = vertx.createNetServer();
        server.connectHandler(in -> {
            in.pause();
            vertx.createNetClient().connect(targetPort, targetHost).onSuccess(out -> {
                pipe(in, out);
                pipe(out, in);
                in.resume();
            }).onFailure(err -> in.close());
        });
        server.listen(port).toCompletionStage().toCompletableFuture().join();
        return server;
    }

    private void pipe(NetSocket from, NetSocket to) {
        Deque<long[]> times = new ArrayDeque<>();
        Deque<Buffer> chunks = new ArrayDeque<>();
        long[] last = {0};
        boolean[] armed = {false};
        from.handler(chunk -> {
            double delay = oneWayMs + (ThreadLocalRandom.current().nextDouble() * 2 - 1) * jitterMs;
            long due = Math.max(System.nanoTime() + (long) (delay * 1_000_000), last[0]);
            last[0] = due;
            times.add(new long[] {due});
            chunks.add(chunk);
            if (!armed[0]) {
                arm(times, chunks, to, armed);
            }
        });
        from.closeHandler(v -> to.close());
    }

    private void arm(Deque<long[]> times, Deque<Buffer> chunks, NetSocket to, boolean[] armed) {
        long wait = Math.max(1, (times.peek()[0] - System.nanoTime()) / 1_000_000);
        armed[0] = true;
        vertx.setTimer(wait, id -> {
            long now = System.nanoTime();
            while (!times.isEmpty() && times.peek()[0] <= now + 500_000) {
                times.poll();
                to.write(chunks.poll());
            }
            armed[0] = false;
            if (!times.isEmpty()) {
                arm(times, chunks, to, armed);
            }
        });
    }

    public static void main(String[] args) {
        Vertx vertx = Vertx.vertx();
        new LatencyProxy(vertx, Double.parseDouble(args[2]), Double.parseDouble(args[3]))
                .listen(Integer.parseInt(args[0]), "127.0.0.1", Integer.parseInt(args[1]));
        System.out.println("proxy " + args[0] + " -> " + args[1] + " rtt " + args[2] + " ms ± " + args[3]);
    }
}
