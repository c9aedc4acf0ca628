package io.quire.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads, writes and memory against the dataset size. */
final class ScaleStage extends Stage {

    ScaleStage(Stage shared) {
        super(shared);
    }

    // --- reads and memory against the dataset size, datasets loaded through the journal ----------

    /**
     * For each of {@code --scale-sizes} (100,000 and 1,500,000 by default): a synthetic journal of
     * that many registrations (ids 1..N, four versions per subject) loaded with {@code journal
     * import} into a broker of its own, a fresh node replaying it, then reads by id over uniformly
     * drawn ids at 200 clients, registrations of new subjects at 200 writers and the 5 % write mix,
     * the node's RSS after each, and its view on disk. Loading through the journal
     * instead of HTTP is what makes the 1.5 M point take minutes rather than an hour.
     */
    void scale() throws Exception {
        Map<String, Object> points = new java.util.LinkedHashMap<>();
        for (int size : o.scaleSizes()) {
            Path dir = o.out().resolve("scale-" + size);
            Files.createDirectories(dir);
            Path file = dir.resolve("journal.ndjson");
            long records = SyntheticJournal.write(file, size);
            int brokerPort = Processes.freePort();
            Process broker = startBroker(dir.resolve("broker"), brokerPort, 0, "broker-scale-" + size);
            String bootstrap = "127.0.0.1:" + brokerPort;
            Process load = start(o.out().resolve("logs/journal-import-" + size + ".log"), List.of("-Xmx1g"), "-jar",
                    o.quireJar().toString(), "journal", "import", "--file", file.toString(), "--bootstrap-servers",
                    bootstrap, "--journal-replication", "1", "--journal-min-isr", "1");
            if (load.waitFor() != 0) {
                throw new IllegalStateException("journal import failed: see logs/journal-import-" + size + ".log");
            }
            running.remove(load);
            Files.delete(file);
            long r0 = System.nanoTime();
            Node node = startNode("scale-" + size, dir.resolve("node"), bootstrap, Processes.freePort(), List.of(),
                    o.scaleNodeHeap());
            double readySeconds = (System.nanoTime() - r0) / 1e9;
            // A node fresh from a long catch-up compacts its view for a while (15 s at 1.5 M), which takes
            // a core from the reads: measure once its files are settled, and say how long that took.
            double settleSeconds = awaitCompactions(node.endpoint(), Duration.ofMinutes(5));
            log(String.format("scale: %,d schemas: view compactions settled %.1f s after ready", size, settleSeconds));
            long[] ids = java.util.stream.LongStream.rangeClosed(1, size).toArray();
            Result r = measure("quire@" + size + "-journal", "reads", 200, Workloads.readById(client, node.endpoint(), ids,
                    false));
            long rss = Processes.rssMiB(node.process());
            r.extra().put("datasetSize", size);
            r.extra().put("rssMiB", rss);
            // Then writes (new subjects, 200 writers) and the 5 % mix over the same ids: RSS under write load.
            Result w = measure("quire@" + size + "-journal", "writes", 200, Workloads.registerNew(client,
                    node.endpoint(), "scale-" + size + "-" + runId()));
            long rssWrites = Processes.rssMiB(node.process());
            w.extra().put("datasetSize", size);
            w.extra().put("rssMiB", rssWrites);
            Result m = measure("quire@" + size + "-journal", "mixed-5pct-writes", 200, Workloads.mixed(
                    Workloads.readById(client, node.endpoint(), ids, false),
                    Workloads.registerNew(client, node.endpoint(), "scale-m-" + size + "-" + runId()), 0.05));
            long rssMixed = Processes.rssMiB(node.process());
            m.extra().put("datasetSize", size);
            m.extra().put("rssMiB", rssMixed);
            long disk = du(dir.resolve("node/streams")) >> 20;
            // A node on an empty disk that fetches a fresh snapshot of this one over HTTP.
            long f0 = System.nanoTime();
            Node fetched = startNode("scale-" + size + "-fetch", dir.resolve("node-fetch"), bootstrap,
                    Processes.freePort(), List.of("--bootstrap-snapshot", "http://127.0.0.1:" + node.port()), o.scaleNodeHeap());
            double fetchedSeconds = (System.nanoTime() - f0) / 1e9;
            stop(fetched.process());
            log(String.format("scale: %,d schemas (%,d journal records): ready %.1f s after JVM start, reads %,.0f/s "
                    + "p99 %.1f ms at 200 clients, RSS %,d MiB; writes %,.0f/s p99 %.1f ms, RSS %,d MiB; 5 %% mix "
                    + "%,.0f/s p99 %.1f ms, RSS %,d MiB; view %,d MiB; a node fetching its snapshot over HTTP ready "
                    + "%.1f s after JVM start", size, records, readySeconds, r.throughput(),
                    r.p99() / 1000.0, rss, w.throughput(), w.p99() / 1000.0, rssWrites, m.throughput(),
                    m.p99() / 1000.0, rssMixed, disk, fetchedSeconds));
            Map<String, Object> point = new java.util.LinkedHashMap<>();
            point.put("journalRecords", records);
            point.put("readySeconds", round(readySeconds));
            point.put("compactionsSettledSeconds", round(settleSeconds));
            point.put("readsPerSecond", Math.round(r.throughput()));
            point.put("p99Ms", r.p99() / 1000.0);
            point.put("rssMiB", rss);
            point.put("writesPerSecond", Math.round(w.throughput()));
            point.put("writesP99Ms", w.p99() / 1000.0);
            point.put("rssMiBAfterWrites", rssWrites);
            point.put("mixedPerSecond", Math.round(m.throughput()));
            point.put("rssMiBAfterMixed", rssMixed);
            point.put("viewMiB", disk);
            point.put("fetchedSnapshotReadySeconds", round(fetchedSeconds));
            points.put(Integer.toString(size), point);
            stop(node.process());
            stop(broker);
        }
        facts.put("scale", points);
    }

    /**
     * Waits until the node's {@code quire_view_compactions} gauge reads 0 twice in a row (polled
     * every second), at most {@code limit}; returns the seconds waited.
     */
    double awaitCompactions(Workloads.Endpoint e, Duration limit) throws Exception {
        long t0 = System.nanoTime();
        int zeros = 0;
        while (System.nanoTime() - t0 < limit.toNanos()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^quire_view_compactions (\\S+)$")
                    .matcher(metrics(e));
            if (!m.find()) {
                break; // a build without the gauge
            }
            zeros = Double.parseDouble(m.group(1)) == 0 ? zeros + 1 : 0;
            if (zeros == 2) {
                break;
            }
            Thread.sleep(1000);
        }
        return (System.nanoTime() - t0) / 1e9;
    }
}
