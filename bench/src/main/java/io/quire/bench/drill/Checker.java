package io.quire.bench.drill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.bench.drill.History.Kind;
import io.quire.bench.drill.History.Op;
import io.quire.bench.drill.History.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the registry promises, checked against a drill's history once every link is healed:
 * <ol>
 * <li>one schema per id, forever: no two acknowledged registrations of different schemas got one id,
 *     and every node serves each id as the schema it was given for;</li>
 * <li>every acknowledged registration is there on every node, under the id it was answered with
 *     (a lookup of the subject and schema on each node finds that id);</li>
 * <li>a subject's versions are dense (1 to n) on every node;</li>
 * <li>one schema in many subjects has one id;</li>
 * <li>no read with a read-your-writes token saw less than the write it followed;</li>
 * <li>a registration whose outcome the client never learnt landed on every node or on none, the
 *     same way;</li>
 * <li>every node ends at the same journal position with the same view digest.</li>
 * </ol>
 */
final class Checker {

    static final ObjectMapper JSON = new ObjectMapper();

    private final PartitionDrill drill;
    final Map<String, Integer> counts = new TreeMap<>();

    Checker(PartitionDrill drill) {
        this.drill = drill;
    }

    static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A number field of a JSON answer; -1 when there is no answer or no such field. */
    static long longField(String body, String field) {
        if (body == null) {
            return -1;
        }
        try {
            return JSON.readTree(body).path(field).asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The schema text of a {@code GET /schemas/ids/{id}} answer. */
    static String schemaOf(String body) {
        if (body == null) {
            return "";
        }
        try {
            return JSON.readTree(body).path("schema").asText();
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether two Avro record texts are the same schema: the same record name and field names. */
    static boolean sameSchema(String a, String b) {
        try {
            JsonNode x = JSON.readTree(a);
            JsonNode y = JSON.readTree(b);
            return x.path("name").equals(y.path("name")) && fields(x).equals(fields(y));
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> fields(JsonNode record) {
        List<String> out = new ArrayList<>();
        record.path("fields").forEach(f -> out.add(f.path("name").asText()));
        return out;
    }

    private synchronized void count(String what) {
        counts.merge(what, 1, Integer::sum);
    }

    List<String> check(List<Op> ops) throws InterruptedException {
        List<String> anomalies = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> remote = new ArrayList<>(); // what is asked of the nodes: asked by 12 threads at once
        String converged = converge();
        if (converged != null) {
            anomalies.add(converged);
        }
        Map<Long, String> schemaOfId = new HashMap<>();
        Set<Long> cycleIds = new HashSet<>();
        Set<Long> sharedIds = new HashSet<>();
        Set<String> subjects = new HashSet<>();
        Map<String, List<Op>> cycles = new TreeMap<>();
        for (Op op : ops) {
            if (op.subject().startsWith("cycle-") && op.kind() != Kind.READ) {
                count(op.kind() + " " + op.outcome());
                cycles.computeIfAbsent(op.subject(), k -> new ArrayList<>()).add(op);
                if (op.kind() == Kind.REGISTER && op.outcome() == Outcome.OK) {
                    remember(schemaOfId, op, anomalies);
                    cycleIds.add(op.id());
                }
                continue;
            }
            if (op.kind() == Kind.READ) {
                count(op.kind() + (op.offset() < 0 ? " without a token " : " with a token ") + op.outcome());
                if (op.outcome() == Outcome.FAIL && op.offset() < 0) {
                    anomalies.add("read of another schema: client " + op.client() + " read id " + op.id() + " from node "
                            + (op.node() + 1) + " without a token at " + op.start() + " ms and got " + op.answer());
                } else if (op.outcome() == Outcome.FAIL) {
                    anomalies.add("stale read: client " + op.client() + " read id " + op.id() + " from node " + (op.node() + 1)
                            + " with token " + op.offset() + " at " + op.start() + " ms and got " + op.answer());
                }
                continue;
            }
            count(op.kind() + " " + op.outcome());
            subjects.add(op.subject());
            if (op.outcome() == Outcome.OK) {
                remember(schemaOfId, op, anomalies);
                if (op.schema().equals(PartitionDrill.SHARED)) {
                    sharedIds.add(op.id());
                }
                remote.add(() -> {
                    for (int node = 0; node < 3; node++) {
                        long found = lookup(node, op.subject(), op.schema());
                        if (found != op.id()) {
                            anomalies.add("acknowledged registration lost or changed: " + op.subject() + " got id "
                                    + op.id() + " (client " + op.client() + ", node " + (op.node() + 1) + ", " + op.end()
                                    + " ms), node " + (node + 1) + " finds " + found);
                        }
                    }
                });
            } else if (op.outcome() == Outcome.UNKNOWN) {
                remote.add(() -> {
                    Set<Long> seen = new HashSet<>();
                    for (int node = 0; node < 3; node++) {
                        seen.add(lookup(node, op.subject(), op.schema()));
                    }
                    count(seen.contains(-1L) ? "unknown registrations resolved: not there"
                            : "unknown registrations resolved: there");
                    if (seen.size() != 1) {
                        anomalies.add("unknown registration resolved differently on the nodes: " + op.subject() + " "
                                + seen);
                    }
                });
            }
        }
        checkCycles(cycles, anomalies);
        if (sharedIds.size() > 1) {
            anomalies.add("one schema in many subjects got several ids: " + sharedIds);
        }
        for (Map.Entry<Long, String> e : schemaOfId.entrySet()) {
            if (cycleIds.contains(e.getKey())) {
                continue; // its subject may have been deleted for good since
            }
            remote.add(() -> idServed(e.getKey(), e.getValue(), anomalies));
        }
        for (String subject : subjects) {
            remote.add(() -> versionsDense(subject, anomalies));
        }
        runAll(remote);
        counts.put("ids acknowledged", schemaOfId.size());
        counts.put("subjects", subjects.size());
        List<String> sorted = new ArrayList<>(anomalies);
        Collections.sort(sorted);
        return sorted;
    }

    /** An acknowledged registration's id and schema: an anomaly when the id already meant another schema. */
    private static void remember(Map<Long, String> schemaOfId, Op op, List<String> anomalies) {
        String before = schemaOfId.putIfAbsent(op.id(), op.schema());
        if (before != null && !sameSchema(before, op.schema())) {
            anomalies.add("id " + op.id() + " means two schemas: " + before + " and " + op.schema()
                    + " (the second acknowledged to client " + op.client() + " at " + op.end() + " ms)");
        }
    }

    /** Runs the checks that ask the nodes, twelve at a time. */
    private static void runAll(List<Runnable> checks) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(12);
        checks.forEach(pool::execute);
        pool.shutdown();
        if (!pool.awaitTermination(1, TimeUnit.HOURS)) {
            throw new IllegalStateException("the checks did not end within an hour");
        }
    }

    /** Every node serves the id as the schema it was given for. */
    private void idServed(long id, String schema, List<String> anomalies) {
        for (int node = 0; node < 3; node++) {
            PartitionDrill.Answer a = ask(node, "GET", "/schemas/ids/" + id, null);
            if (a.status() != 200 || !sameSchema(schemaOf(a.body()), schema)) {
                anomalies.add("node " + (node + 1) + " serves id " + id + " as " + a.body() + ", not " + schema);
            }
        }
    }

    /** A subject's versions are 1 to n on every node. */
    private void versionsDense(String subject, List<String> anomalies) {
        for (int node = 0; node < 3; node++) {
            PartitionDrill.Answer a = ask(node, "GET", "/subjects/" + subject + "/versions", null);
            if (a.status() == 404) {
                continue;
            }
            if (a.status() != 200) {
                anomalies.add("versions of " + subject + " on node " + (node + 1) + ": no answer (" + a.error() + ")");
                continue;
            }
            try {
                JsonNode versions = JSON.readTree(a.body());
                for (int i = 0; i < versions.size(); i++) {
                    if (versions.get(i).asInt() != i + 1) {
                        anomalies.add("versions of " + subject + " on node " + (node + 1) + " are not dense: " + versions);
                        break;
                    }
                }
            } catch (IOException ex) {
                anomalies.add("versions of " + subject + " on node " + (node + 1) + ": " + a.body());
            }
        }
    }

    /**
     * Subjects registered, soft-deleted, deleted for good and registered again by one client, one
     * step at a time: where every step's outcome is known, every node ends as the last step left it
     * (registered: found under the id answered; deleted: not found); where one is unknown, every
     * node ends the same way.
     */
    private void checkCycles(Map<String, List<Op>> cycles, List<String> anomalies) {
        for (Map.Entry<String, List<Op>> e : cycles.entrySet()) {
            List<Op> steps = e.getValue();
            String schema = steps.get(0).schema();
            Set<Long> found = new HashSet<>();
            for (int node = 0; node < 3; node++) {
                found.add(lookup(node, e.getKey(), schema));
            }
            if (found.size() != 1) {
                anomalies.add("subject " + e.getKey() + " ends differently on the nodes: " + found);
                continue;
            }
            if (steps.stream().anyMatch(s -> s.outcome() == Outcome.UNKNOWN)) {
                continue;
            }
            Op last = null;
            for (Op s : steps) {
                if (s.outcome() == Outcome.OK) {
                    last = s;
                }
            }
            if (last == null) {
                continue;
            }
            long expected = last.kind() == Kind.REGISTER ? last.id() : -1;
            long now = found.iterator().next();
            if (now != expected) {
                anomalies.add("subject " + e.getKey() + ": its last acknowledged step was " + last.kind() + " (client "
                        + last.client() + ", " + last.end() + " ms), yet every node finds " + now);
            }
            count("cycle subjects checked");
        }
    }

    /** A request the checker needs answered: tried again (up to 10 times, 0.5 s apart) while no node answers. */
    PartitionDrill.Answer ask(int node, String method, String path, String body) {
        PartitionDrill.Answer a = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            a = drill.send(node, method, path, body, null);
            if (a.status() > 0 && a.status() < 500) {
                return a;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return a;
            }
        }
        return a;
    }

    /** The id a lookup of the schema in the subject finds on a node; -1 when it finds none, -2 without an answer. */
    long lookup(int node, String subject, String schema) {
        PartitionDrill.Answer a = ask(node, "POST", "/subjects/" + subject, PartitionDrill.body(schema));
        return a.status() == 200 ? longField(a.body(), "id") : a.status() == 404 ? -1 : -2;
    }

    /**
     * Waits (up to two minutes) until every node is ready at the same journal position; null when
     * they are, and their view digests agree; else what differs. Nodes ready at one offset with
     * different digests have applied the same records into different views, which no wait mends:
     * seen twice 2 s apart, that is the answer at once.
     */
    String converge() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        String last = "";
        while (System.currentTimeMillis() < deadline) {
            boolean ready = true;
            for (int node = 0; node < 3; node++) {
                ready &= drill.send(node, "GET", "/health/ready", null, null).status() == 200;
            }
            Set<String> positions = positions();
            last = positions.toString();
            if (ready && !positions.contains("none") && offsets(positions).size() == 1) {
                Thread.sleep(2_000); // and still so: nothing was in flight
                Set<String> again = positions();
                if (again.size() == 1) {
                    counts.put("final journal offset", (int) longField(again.iterator().next(), "offset"));
                    return null;
                }
                if (again.equals(positions)) {
                    return "the nodes' views differ at one journal position after healing: " + again;
                }
            }
            Thread.sleep(500);
        }
        return "the nodes did not converge on one position and digest after healing: " + last;
    }

    /** Each node's {@code /admin/position} answer ("none" for a node that gave none). */
    private Set<String> positions() {
        Set<String> positions = new HashSet<>();
        for (int node = 0; node < 3; node++) {
            PartitionDrill.Answer p = drill.send(node, "GET", "/admin/position", null, null);
            positions.add(p.status() == 200 ? p.body() : "none");
        }
        return positions;
    }

    private static Set<Long> offsets(Set<String> positions) {
        Set<Long> offsets = new HashSet<>();
        for (String p : positions) {
            offsets.add(longField(p, "offset"));
        }
        return offsets;
    }
}
