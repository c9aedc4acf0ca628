package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Reads (point lookups, scans, lookups on workers) racing a node's shutdown: each is answered
 * 200 or 503, or its connection is closed; none gets a 500, and the closed store is never touched
 * (which would take the JVM down with it).
 */
class ShutdownRaceIT {

    @Test
    void readsRacingShutdownAreAnswered200Or503() throws Exception {
        QuireNode node = Nodes.start(Nodes.config("shutdown-race", Files.createTempDirectory("quire-shutdown-race"),
                "shutdown-node", "--http-instances", "2"));
        Http http = new Http(node.httpPort());
        for (int i = 0; i < 50; i++) {
            assertEquals(200, http.post("/subjects/race-" + i + "/versions",
                    Http.schemaBody(Http.record("R" + i, "{\"name\":\"a\",\"type\":\"string\"}"))).status());
        }
        Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        AtomicLong refused = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService readers = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            int kind = t % 4;
            readers.submit(() -> {
                int i = 0;
                while (!stop.get()) {
                    i++;
                    try {
                        Http.Response r = switch (kind) {
                            case 0 -> http.get("/schemas/ids/" + (1 + i % 50));
                            case 1 -> http.get("/subjects");
                            case 2 -> http.post("/subjects/race-" + (i % 50),
                                    Http.schemaBody(Http.record("R" + (i % 50), "{\"name\":\"a\",\"type\":\"string\"}")));
                            default -> http.get("/schemas?limit=20");
                        };
                        statuses.computeIfAbsent(r.status(), s -> new AtomicLong()).incrementAndGet();
                    } catch (RuntimeException e) {
                        refused.incrementAndGet(); // connection refused or closed: the node is gone
                    }
                }
            });
        }
        Thread.sleep(1_500);
        node.close();
        Thread.sleep(500);
        stop.set(true);
        readers.shutdown();
        assertTrue(readers.awaitTermination(60, TimeUnit.SECONDS));
        Map<Integer, Long> seen = new TreeMap<>();
        statuses.forEach((s, n) -> seen.put(s, n.get()));
        System.out.println("statuses during shutdown: " + seen + ", connections refused or closed: " + refused.get());
        assertTrue(seen.getOrDefault(200, 0L) > 0, "reads were served before the shutdown: " + seen);
        seen.keySet().forEach(s -> assertTrue(s == 200 || s == 503, "status " + s + " in " + seen));
    }
}
