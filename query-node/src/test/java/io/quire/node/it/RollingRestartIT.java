package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.config.QuireConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A rolling restart under load: three nodes serve reads by id and registrations to clients that
 * know all three URLs (as Confluent's clients do with several base URLs) and move to the next one
 * only when a connection is refused, or when the node never answered a byte on it: the kernel
 * resets a connection still queued on a listening socket that closes, before any server took it,
 * sometimes before {@code connect()} has even returned (Confluent's own client fails over on any
 * I/O error). Each node in turn stops as on SIGTERM (not
 * ready, a window of answers that close their connections, then no new connection while the
 * requests in flight are answered) and starts again on its own view. No request may fail: every
 * request a node took is answered 200.
 */
class RollingRestartIT {

    static final int CLIENTS = 6;
    static final int PRELOADED = 20;
    static final long START = System.nanoTime();
    /** Connections the kernel reset (or closed) before any byte of an answer: queued on a closing listener. */
    static final AtomicLong NOT_ANSWERED = new AtomicLong();

    /** No byte of an answer came on the connection. */
    static final class NotAnswered extends IOException {
        NotAnswered(String message) {
            super(message);
        }
    }

    record Outcome(int status, String detail) {
    }

    @Test
    void everyNodeRestartedInTurnUnderLoadFailsNoRequest() throws Exception {
        String topic = "rolling-restart-it";
        int nodes = 3;
        int[] ports = new int[nodes];
        QuireConfig[] configs = new QuireConfig[nodes];
        QuireNode[] running = new QuireNode[nodes];
        for (int i = 0; i < nodes; i++) {
            ports[i] = freePort();
            configs[i] = Nodes.config(topic, Files.createTempDirectory("quire-rolling-" + i), "rolling-" + i,
                    "--port", Integer.toString(ports[i]), "--shutdown-delay-ms", "1000", "--shutdown-timeout-ms", "10000");
            running[i] = Nodes.start(configs[i]);
        }
        List<Long> ids = new ArrayList<>();
        Http first = new Http(ports[0]);
        for (int i = 0; i < PRELOADED; i++) {
            Http.Response r = first.post("/subjects/rolling-base-" + i + "/versions",
                    schemaBody(record("Base" + i, "{\"name\":\"a\",\"type\":\"string\"}")));
            assertEquals(200, r.status(), r.body());
            ids.add(r.json().get("id").asLong());
        }
        long end = first.get("/admin/position").json().get("offset").asLong();
        for (int i = 1; i < nodes; i++) {
            Http h = new Http(ports[i]);
            Nodes.await(() -> h.get("/admin/position").json().get("offset").asLong() >= end, Duration.ofSeconds(30),
                    () -> "every node at the preloaded offset");
        }

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong answered = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong slowestNanos = new AtomicLong();
        AtomicLong registered = new AtomicLong();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> loops = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            loops.add(clients.submit(() -> {
                long n = 0;
                while (!stop.get()) {
                    n++;
                    boolean write = n % 5 == 0;
                    String request = write
                            ? post("/subjects/rolling-" + client + "-" + n + "/versions",
                                    schemaBody(record("R" + client + "x" + n, "{\"name\":\"a\",\"type\":\"long\"}")))
                            : get("/schemas/ids/" + ids.get((int) (n % ids.size())));
                    long t0 = System.nanoTime();
                    Outcome o = sendToAny(ports, (int) ((client + n) % ports.length), request, refused);
                    slowestNanos.accumulateAndGet(System.nanoTime() - t0, Math::max);
                    answered.incrementAndGet();
                    if (o.status() != 200) {
                        failures.add(String.format("%.3f s: ", (System.nanoTime() - START) / 1e9) + o.status() + " "
                                + o.detail() + " for " + request.lines().findFirst().orElse(""));
                    } else if (write) {
                        registered.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        Thread.sleep(1_500); // load before the first restart
        List<Long> readyMillis = new ArrayList<>();
        List<Long> stopMillis = new ArrayList<>();
        try {
            for (int i = 0; i < nodes; i++) {
                long t0 = System.nanoTime();
                System.out.printf("%.3f s: stopping node %d%n", (t0 - START) / 1e9, i);
                running[i].shutdownGracefully();
                System.out.printf("%.3f s: stopped node %d%n", (System.nanoTime() - START) / 1e9, i);
                long t1 = System.nanoTime();
                running[i] = Nodes.start(configs[i]);
                stopMillis.add((t1 - t0) / 1_000_000);
                readyMillis.add((System.nanoTime() - t1) / 1_000_000);
                Thread.sleep(1_000); // load on the three again before the next restart
            }
        } finally {
            stop.set(true);
            for (Future<?> f : loops) {
                f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            clients.shutdown();
        }
        System.out.printf("rolling restart: %d requests answered (%d registrations), %d failed, %d refused connects "
                + "and %d connections without a byte of answer moved to another node, slowest %d ms; stop (window "
                + "and drain) %s ms, ready again %s ms%n", answered.get(), registered.get(), failures.size(),
                refused.get(), NOT_ANSWERED.get(), slowestNanos.get() / 1_000_000, stopMillis, readyMillis);
        try {
            assertEquals(List.of(), List.copyOf(failures), "requests that failed during the rolling restart");
            assertTrue(answered.get() > 100, "the load ran: " + answered.get());
            assertTrue(refused.get() > 0, "connections were refused while a node was down, and the clients moved on");
            for (int i = 0; i < nodes; i++) {
                assertEquals(200, new Http(ports[i]).get("/schemas/ids/" + ids.get(0)).status(), "node " + i + " serves again");
            }
        } finally {
            for (QuireNode n : running) {
                n.close();
            }
        }
    }

    /**
     * Sends a request to the node at {@code start}, or the next one whose port takes the connection
     * (a refused connection is the one reason to move on; all refused: wait a little and go round).
     */
    static Outcome sendToAny(int[] ports, int start, String request, AtomicLong refused) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int attempt = 0; System.nanoTime() < deadline; attempt++) {
            int port = ports[(start + attempt) % ports.length];
            try {
                return send(port, request);
            } catch (ConnectException | NotAnswered e) {
                (e instanceof NotAnswered ? NOT_ANSWERED : refused).incrementAndGet();
                if (attempt % ports.length == ports.length - 1) {
                    sleep(50);
                }
            } catch (IOException e) {
                return new Outcome(-1, "port " + port + ": " + e);
            }
        }
        return new Outcome(-2, "every node refused connections for 60 s");
    }

    /** One request on a connection of its own; the status, or an exception for a refused or broken connection. */
    static Outcome send(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            } catch (ConnectException e) {
                throw e;
            } catch (java.net.SocketException e) {
                // the handshake completed in the kernel, then the listener closed with the connection
                // still queued and reset it before connect() returned: no byte of the request was sent
                throw new NotAnswered("port " + port + ": reset while connecting: " + e.getMessage());
            }
            s.setSoTimeout(30_000);
            try {
                s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
            } catch (java.net.SocketException e) {
                // reset while sending: a connection the stopping node had not taken from its accept
                // queue when it closed its listener. No byte of answer, so the client moves on.
                throw new NotAnswered("port " + port + ": " + e.getMessage());
            }
            String head = readHead(s.getInputStream(), port);
            if (head.isEmpty()) {
                throw new NotAnswered("port " + port + ": closed before any answer");
            }
            String[] statusLine = head.split("\r\n", 2)[0].split(" ");
            if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/")) {
                throw new IOException("no answer from port " + port + ": '" + head + "'");
            }
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?im)^content-length:\\s*(\\d+)").matcher(head);
            byte[] body;
            try {
                body = length.find() ? s.getInputStream().readNBytes(Integer.parseInt(length.group(1))) : new byte[0];
            } catch (IOException e) {
                throw new IOException("reading the body after the head '" + head.strip() + "': " + e, e);
            }
            return new Outcome(Integer.parseInt(statusLine[1]), new String(body, StandardCharsets.UTF_8));
        }
    }

    /** The status line and headers; {@link NotAnswered} when the connection broke before their first byte. */
    static String readHead(InputStream in, int port) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int c;
        while (true) {
            try {
                c = in.read();
            } catch (java.net.SocketException e) {
                if (head.size() == 0) {
                    throw new NotAnswered("port " + port + ": " + e.getMessage());
                }
                throw new IOException("after " + head.size() + " bytes of the head '"
                        + head.toString(StandardCharsets.ISO_8859_1) + "': " + e, e);
            }
            if (c == -1) {
                break;
            }
            head.write(c);
            if (head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    }

    static String post(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/vnd.schemaregistry.v1+json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
