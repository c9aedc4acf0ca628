package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Many clients registering different compatible versions to one subject at once, on one node and
 * spread over three: every registration succeeds, each with its own id, and the subject ends with
 * versions 1..N+1 without gaps.
 */
class ContentionIT {

    static final int CLIENTS = 50;
    static final int VERSIONS = 400;

    /** Version {@code i}: the base field plus an optional field of its own; any two are BACKWARD compatible. */
    static String version(int i) {
        return Http.record("Busy", "{\"name\":\"a\",\"type\":\"string\"}",
                "{\"name\":\"f" + i + "\",\"type\":\"int\",\"default\":" + i + "}");
    }

    @Test
    void oneNodeSerialisesConcurrentVersionsOfOneSubject() throws Exception {
        QuireNode node = Nodes.start(Nodes.config("contention-one", Files.createTempDirectory("quire-contention-1"),
                "contention-one", "--http-instances", "2"));
        try {
            run(List.of(new Http(node.httpPort())), "busy-one");
        } finally {
            node.close();
        }
    }

    @Test
    void threeNodesRetryConflictsUntilEveryVersionLands() throws Exception {
        List<QuireNode> nodes = new ArrayList<>();
        try {
            for (int n = 0; n < 3; n++) {
                nodes.add(Nodes.start(Nodes.config("contention-three", Files.createTempDirectory("quire-contention-3"),
                        "contention-" + n)));
            }
            run(nodes.stream().map(q -> new Http(q.httpPort())).toList(), "busy-three");
        } finally {
            nodes.forEach(QuireNode::close);
        }
    }

    private static void run(List<Http> nodes, String subject) throws Exception {
        Http first = nodes.get(0);
        assertEquals(200, first.post("/subjects/" + subject + "/versions", Http.schemaBody(version(0))).status());
        Map<Integer, String> failures = new ConcurrentHashMap<>();
        Map<Integer, Long> ids = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long started = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int i = 1; i <= VERSIONS; i++) {
            int v = i;
            Http http = nodes.get(v % nodes.size());
            done.add(clients.submit(() -> {
                Http.Response r = http.post("/subjects/" + subject + "/versions", Http.schemaBody(version(v)));
                if (r.status() == 200) {
                    ids.put(v, r.json().get("id").asLong());
                } else {
                    failures.put(v, r.status() + " " + r.body());
                }
            }));
        }
        for (Future<?> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }
        clients.shutdown();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.printf("%s: %d registrations by %d clients over %d node(s) in %d ms%n", subject, VERSIONS, CLIENTS,
                nodes.size(), ms);
        assertTrue(failures.isEmpty(), failures.size() + " failed, for example " + new TreeMap<>(failures)
                .entrySet().stream().limit(3).toList());
        Set<Long> distinct = new HashSet<>(ids.values());
        assertEquals(VERSIONS, distinct.size(), "every version has its own id");
        long offset = nodes.stream().mapToLong(h -> h.get("/admin/position").json().get("offset").asLong()).max()
                .orElseThrow();
        String expected = IntStream.rangeClosed(1, VERSIONS + 1).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(",", "[", "]"));
        for (Http h : nodes) {
            Http.Response versions = h.get("/subjects/" + subject + "/versions", "X-Quire-Min-Offset",
                    Long.toString(offset));
            assertEquals(expected, versions.body(), "versions 1.." + (VERSIONS + 1) + " without gaps, on every node");
        }
        Set<Long> stored = new HashSet<>();
        for (int v = 2; v <= VERSIONS + 1; v++) {
            stored.add(first.get("/subjects/" + subject + "/versions/" + v).json().get("id").asLong());
        }
        assertEquals(distinct, stored, "the versions hold exactly the ids the clients were given");
    }
}
