package io.quire.bench;

import io.vertx.core.http.HttpMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/** Replay, snapshot bootstrap and id leases on a big journal. */
final class ReplayStage extends Stage {

    ReplayStage(Stage shared) {
        super(shared);
    }

    // --- replay, snapshot bootstrap and id leases on a big journal -----------------------------------

    /**
     * A journal of {@code --replay-registrations} registrations (1 M by default, plus a lease per
     * 1,000) loaded with {@code journal import}; a fresh node replays all of it; the node writes a
     * snapshot; 20,000 more registrations arrive over HTTP (leasing id blocks as they go); a second
     * fresh node starts from the snapshot and replays only that tail.
     */
    void replay() throws Exception {
        Path dir = o.out().resolve("replay");
        Files.createDirectories(dir);
        Path file = dir.resolve("journal.ndjson");
        long t0 = System.nanoTime();
        long records = SyntheticJournal.write(file, o.replayRegistrations());
        log(String.format("replay: wrote %,d synthetic journal records in %.1f s", records, (System.nanoTime() - t0) / 1e9));
        int brokerPort = Processes.freePort();
        Process broker = startBroker(dir.resolve("broker"), brokerPort, 0, "broker-replay");
        String bootstrap = "127.0.0.1:" + brokerPort;
        long i0 = System.nanoTime();
        Process load = start(o.out().resolve("logs/journal-import.log"), List.of("-Xmx1g"), "-jar",
                o.quireJar().toString(), "journal", "import", "--file", file.toString(), "--bootstrap-servers", bootstrap,
                "--journal-replication", "1", "--journal-min-isr", "1");
        if (load.waitFor() != 0) {
            throw new IllegalStateException("journal import failed: see logs/journal-import.log");
        }
        running.remove(load);
        double importSeconds = (System.nanoTime() - i0) / 1e9;
        Files.delete(file);

        long r0 = System.nanoTime();
        Node a = startNode("replay-a", dir.resolve("node-a"), bootstrap);
        double readySeconds = (System.nanoTime() - r0) / 1e9;
        double replaySeconds = replayMillis(o.out().resolve("logs/replay-a.log")) / 1000.0;
        long secondHalf = secondHalfRate(o.out().resolve("logs/replay-a.log"));
        long viewBytes = du(dir.resolve("node-a/streams"));
        log(String.format("replay: %,d records replayed by a fresh node in %.1f s (%.0f records/s, the second half at "
                + "%,d records/s); ready %.1f s after its JVM started; view %,d MiB on disk", records, replaySeconds,
                records / replaySeconds, secondHalf, readySeconds, viewBytes >> 20));

        long s0 = System.nanoTime();
        Workloads.Answer snap = Workloads.call(client, a.endpoint(), HttpMethod.POST, "/admin/snapshot", null, null, null)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
        double snapshotSeconds = (System.nanoTime() - s0) / 1e9;
        var snapJson = snap.body().toJsonObject();
        log(String.format("replay: snapshot at offset %d, %,d MiB, in %.2f s", snapJson.getLong("offset"),
                snapJson.getLong("bytes") >> 20, snapshotSeconds));

        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        ingest(a.endpoint(), 20_000, ids, "replay-tail");
        long end = position(a.endpoint()) + 1;
        Map<String, Double> lease = leaseTimer(a.endpoint());
        log(String.format("replay: %s id-block leases of 1,000 ids: mean %.2f ms, max %.2f ms (%.2f µs per id)",
                lease.get("count").longValue(), lease.get("meanMs"), lease.get("maxMs"), lease.get("meanMs")));

        long b0 = System.nanoTime();
        Node b = startNode("replay-b", dir.resolve("node-b"), bootstrap, Processes.freePort(),
                List.of("--bootstrap-snapshot", snapJson.getString("path")));
        double bootSeconds = (System.nanoTime() - b0) / 1e9;
        double tailSeconds = replayMillis(o.out().resolve("logs/replay-b.log")) / 1000.0;
        long tail = end - 1 - snapJson.getLong("offset");
        log(String.format("replay: a node bootstrapped from the snapshot replayed %,d tail records in %.1f s and was "
                + "ready %.1f s after its JVM started (full replay: %.1f s)", tail, tailSeconds, bootSeconds, readySeconds));
        // B is done: stopped first, so that its work after ready (compacting the level-0 files its
        // catch-up left) does not take the cores from C's start.
        stop(b.process());
        // A node on an empty disk that fetches a fresh snapshot from node A over HTTP.
        long c0 = System.nanoTime();
        Node c = startNode("replay-c", dir.resolve("node-c"), bootstrap, Processes.freePort(),
                List.of("--bootstrap-snapshot", "http://127.0.0.1:" + a.port()));
        double fetchedReadySeconds = (System.nanoTime() - c0) / 1e9;
        log(String.format("replay: a node on an empty disk fetched a snapshot from a running node over HTTP and was "
                + "ready %.1f s after its JVM started", fetchedReadySeconds));
        stop(c.process());
        // Node A stopped and started again on its own view: a restart with nothing to catch up,
        // reading the absent-key filters its view saved when it closed.
        long rssA = Processes.rssMiB(a.process());
        stop(a.process());
        long a0 = System.nanoTime();
        Node restarted = startNode("replay-a-restart", dir.resolve("node-a"), bootstrap);
        double restartReadySeconds = (System.nanoTime() - a0) / 1e9;
        log(String.format("replay: the first node, stopped and started again on its view, was ready %.1f s after its "
                + "JVM started", restartReadySeconds));
        stop(restarted.process());
        Map<String, Object> replay = new java.util.LinkedHashMap<>();
        replay.put("journalRecords", records);
        replay.put("journalImportSeconds", round(importSeconds));
        replay.put("fullReplaySeconds", round(replaySeconds));
        replay.put("fullReplayRecordsPerSecond", Math.round(records / replaySeconds));
        replay.put("secondHalfRecordsPerSecond", secondHalf);
        replay.put("freshNodeReadySeconds", round(readySeconds));
        replay.put("viewMiB", viewBytes >> 20);
        replay.put("snapshot", Map.of("offset", snapJson.getLong("offset"), "MiB", snapJson.getLong("bytes") >> 20,
                "seconds", round(snapshotSeconds)));
        replay.put("snapshotBootstrap", Map.of("tailRecords", tail, "tailReplaySeconds", round(tailSeconds),
                "readySeconds", round(bootSeconds), "fetchedOverHttpReadySeconds", round(fetchedReadySeconds)));
        replay.put("idLease", lease);
        replay.put("restartReadySeconds", round(restartReadySeconds));
        replay.put("rssMiB", rssA);
        facts.put("replay", replay);
        stop(broker);
    }
}
