package io.quire.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** The suite's output: results.json (raw), report.md (tables) and PNG charts. */
final class Report {

    private Report() {
    }

    static void writeJson(Path out, Map<String, Object> facts, List<Result> results) throws IOException {
        Map<String, Object> all = new LinkedHashMap<>(facts);
        all.put("results", results);
        Suite.JSON.writeValue(out.resolve("results.json").toFile(), all);
    }

    static void write(Path out, Map<String, Object> facts, List<Result> results) throws IOException {
        writeJson(out, facts, results);
        charts(out, results);
        StringBuilder md = new StringBuilder("# Quire bench report\n\n");
        md.append("Closed model: N clients, each sending its next request when the previous one answered; ")
                .append("warm-up run but not counted. Latencies in ms. Reproduce with `bench/run.sh`.\n\n");
        md.append("## Machine and settings\n\n```\n").append(Suite.JSON.writeValueAsString(
                Map.of("machine", facts.get("machine"), "settings", facts.get("settings")))).append("\n```\n\n");

        md.append(targets(facts, results)).append("\n");
        md.append("## Reads by id (`GET /schemas/ids/{id}`)\n\n");
        double trivial50 = best(results, "trivial-vertx", "reads", 50);
        double trivial200 = best(results, "trivial-vertx", "reads", 200);
        table(md, results.stream().filter(r -> r.scenario().startsWith("reads") && !r.scenario().equals("reads-wrk"))
                .toList(), r -> {
            double limit = r.users() == 50 ? trivial50 : trivial200;
            return limit > 0 && !r.target().startsWith("trivial") ? pct(r.throughput() / limit) + " of the HTTP limit" : "";
        });
        md.append("\n![reads](reads.png)\n\n");

        md.append("## Writes (register a new subject)\n\n");
        table(md, results.stream().filter(r -> r.scenario().equals("writes")).toList(), r -> "");
        md.append("\n").append(ratios(results)).append("\n![writes](writes.png)\n\n![write latency](write-latency.png)\n\n");

        List<Result> steady = results.stream().filter(r -> r.target().equals("quire-steady")
                || r.scenario().equals("reads-wrk")).toList();
        if (!steady.isEmpty()) {
            md.append("## Registrations at steady state (a fresh node and broker each, measured once the JIT settled)\n\n");
            table(md, steady, r -> r.scenario().equals("reads-wrk")
                    ? "`GET /schemas/ids/1` on the trivial server: the machine's HTTP limit under the same load generator"
                    : String.format(Locale.ROOT, "%s; warm-up %s s%s; CPU a registration: node %s µs, "
                            + "broker %s µs; JIT %s s of CPU in the window; node RSS %s MiB",
                    r.extra().getOrDefault("loadGenerator", "the suite's generator"), r.extra().get("warmupSeconds"),
                    Boolean.TRUE.equals(r.extra().get("settled")) ? "" : " (JIT not settled at the limit)",
                    r.extra().getOrDefault("nodeCpuMicrosPerRequest", "—"),
                    r.extra().getOrDefault("brokerCpuMicrosPerRequest", "—"), r.extra().get("compilerCpuSecondsInWindow"),
                    r.extra().get("rssMiB")));
            md.append("\n`writes-new`: a new subject per request. `writes-evolving`: a new version of one of 40 subjects per "
                    + "request, checked against its latest (BACKWARD), no text twice. `writes-evolving-repeated`: the same, "
                    + "each text registered to two subjects.\n\n");
        }

        md.append("## Blended load and multi-node\n\n");
        table(md, results.stream().filter(r -> r.scenario().startsWith("mixed") || r.scenario().startsWith("write-A"))
                .toList(), r -> !r.extra().containsKey("acceptedP50Micros") ? "" : String.format(Locale.ROOT,
                "accepted on A p50 %.1f / p99 %.1f; applied and read on B p50 %.1f / p99 %.1f",
                micros(r, "acceptedP50Micros"), micros(r, "acceptedP99Micros"),
                micros(r, "appliedElsewhereP50Micros"), micros(r, "appliedElsewhereP99Micros")));
        md.append("\n![over time](over-time.png)\n\n");

        md.append("## Dataset size, ingest, memory, rebuild\n\n| key | value |\n|---|---|\n");
        facts.forEach((k, v) -> {
            if (k.startsWith("ingest") || k.startsWith("rss") || k.equals("rebuild") || k.equals("replay") || k.equals("postgres")) {
                md.append("| ").append(k).append(" | ").append(v).append(" |\n");
            }
        });
        if (facts.get("scale") instanceof Map<?, ?> sc) {
            md.append("\n### Against the dataset size (datasets loaded through the journal)\n\n")
                    .append("| schemas | ready after JVM start (s) | compactions settled after (s) | reads/s | p99 ms | RSS after reads | writes/s | "
                            + "writes p99 ms | RSS after writes | 5 % mix req/s | RSS after the mix | view MiB | "
                            + "node fetching its snapshot ready (s) |\n")
                    .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            sc.forEach((size, point) -> {
                if (point instanceof Map<?, ?> p) {
                    md.append("| ").append(size);
                    for (String k : List.of("readySeconds", "compactionsSettledSeconds", "readsPerSecond", "p99Ms", "rssMiB", "writesPerSecond",
                            "writesP99Ms", "rssMiBAfterWrites", "mixedPerSecond", "rssMiBAfterMixed", "viewMiB",
                            "fetchedSnapshotReadySeconds")) {
                        md.append(" | ").append(p.containsKey(k) ? p.get(k) : "—");
                    }
                    md.append(" |\n");
                }
            });
            md.append("\n![throughput against size](scale-throughput.png)\n\n![RSS against size](scale-rss.png)\n");
        }
        md.append("\nSuite time: ").append(facts.get("suiteSeconds")).append(" s.\n\n");
        md.append("""
                ## Published figures this answers (not measured here)

                Apicurio Registry capacity guide, 2 CPU / 2 GiB replica, 15 ms ± 5 ms storage latency:
                reads by id 1,680 req/s (SQL) and 3,000 req/s (KafkaSQL) at 200 clients, p99 ~210 ms;
                writes 6–9/s on SQL at any concurrency (p99 11 s at 20 writers); 50 / 185 / 930 / 1,200
                writes/s at 5 / 20 / 100 / 200 writers on KafkaSQL (p99 1.1 s at 200); 5 % writes at 150
                clients: 110–130 req/s, p99 ≥ 30 s.
                """);
        Files.writeString(out.resolve("report.md"), md.toString());
    }

    /** The project's targets, each with what this run measured; measured, never asserted. */
    static String targets(Map<String, Object> facts, List<Result> results) {
        StringBuilder t = new StringBuilder("## Targets\n\n| target | this run | verdict |\n|---|---|---|\n");
        double trivial = best(results, "trivial-vertx", "reads", 200);
        results.stream().filter(r -> r.target().equals("quire") && r.scenario().equals("reads") && r.users() == 200)
                .findFirst().ifPresent(r -> {
                    row(t, "reads ≥ 75 % of the trivial server at 200 clients",
                            pct(r.throughput() / Math.max(1, trivial)), r.throughput() >= 0.75 * trivial);
                    row(t, "reads p99 ≤ 10 ms at 200 clients", ms(r.p99()), r.p99() <= 10_000);
                });
        results.stream().filter(r -> r.target().equals("quire") && r.scenario().equals("writes") && r.users() == 200)
                .findFirst().ifPresent(r -> row(t, "≥ 5,000 registrations/s at 200 writers, p99 ≤ 100 ms",
                        String.format(Locale.ROOT, "%,.0f/s, p99 %s", r.throughput(), ms(r.p99())),
                        r.throughput() >= 5_000 && r.p99() <= 100_000));
        results.stream().filter(r -> r.target().equals("quire-steady") && r.scenario().equals("writes-new")).findFirst()
                .ifPresent(r -> row(t, "≥ 15,000 new-subject registrations/s at 200 writers, p99 ≤ 30 ms, at steady state",
                        String.format(Locale.ROOT, "%,.0f/s, p99 %s, %d errors", r.throughput(), ms(r.p99()), r.errorCount()),
                        r.throughput() >= 15_000 && r.p99() <= 30_000 && r.errorCount() == 0));
        for (String scenario : List.of("writes-evolving", "writes-evolving-repeated")) {
            results.stream().filter(r -> r.target().equals("quire-steady") && r.scenario().equals(scenario)).findFirst()
                    .ifPresent(r -> row(t, "≥ 8,000 evolving registrations/s at 200 writers, 0 errors (`" + scenario + "`)",
                            String.format(Locale.ROOT, "%,.0f/s, p99 %s, %d errors", r.throughput(), ms(r.p99()),
                                    r.errorCount()), r.throughput() >= 8_000 && r.errorCount() == 0));
        }
        results.stream().filter(r -> r.target().startsWith("quire+") && r.scenario().equals("writes") && r.users() == 200)
                .findFirst().ifPresent(r -> row(t, "≥ 3,000 registrations/s behind the latency proxy",
                        String.format(Locale.ROOT, "%,.0f/s", r.throughput()), r.throughput() >= 3_000));
        results.stream().filter(r -> r.target().equals("quire") && r.scenario().startsWith("mixed")).findFirst()
                .ifPresent(r -> row(t,
                "5 % write mix ≥ 30,000 req/s, p99 ≤ 20 ms",
                String.format(Locale.ROOT, "%,.0f/s, p99 %s", r.throughput(), ms(r.p99())),
                r.throughput() >= 30_000 && r.p99() <= 20_000));
        Object rebuild = facts.get("rebuild");
        if (rebuild instanceof Map<?, ?> m && m.get("recordsPerSecond") instanceof Number n) {
            row(t, "replay ≥ 100,000 commands/s", String.format(Locale.ROOT, "%,d/s", n.longValue()),
                    n.longValue() >= 100_000);
        }
        if (facts.get("replay") instanceof Map<?, ?> r) {
            if (r.get("fullReplayRecordsPerSecond") instanceof Number n) {
                String secondHalf = r.get("secondHalfRecordsPerSecond") instanceof Number h && h.longValue() > 0
                        ? String.format(Locale.ROOT, " (the second half at %,d/s)", h.longValue()) : "";
                row(t, "replay ≥ 100,000 records/s on the 1 M-record journal",
                        String.format(Locale.ROOT, "%,d/s%s", n.longValue(), secondHalf), n.longValue() >= 100_000);
            }
            if (r.get("snapshotBootstrap") instanceof Map<?, ?> b && b.get("fetchedOverHttpReadySeconds") instanceof Number s) {
                row(t, "fresh node from a snapshot fetched over HTTP ready ≤ 15 s (1.5 M-schema target; this journal)",
                        String.format(Locale.ROOT, "%.1f s", s.doubleValue()), s.doubleValue() <= 15);
            }
        }
        if (facts.get("scale") instanceof Map<?, ?> sc && sc.get("100000") instanceof Map<?, ?> small
                && sc.get("1500000") instanceof Map<?, ?> big && small.get("readsPerSecond") instanceof Number rs
                && big.get("readsPerSecond") instanceof Number rb && big.get("rssMiB") instanceof Number rss) {
            double ratio = rb.doubleValue() / rs.doubleValue();
            row(t, "reads at 1.5 M schemas within 10 % of 100 k (datasets from the journal)",
                    String.format(Locale.ROOT, "%,d/s vs %,d/s (%.0f %%)", rb.longValue(), rs.longValue(), 100 * ratio),
                    ratio >= 0.9);
            Object heap = facts.get("settings") instanceof Map<?, ?> st ? st.get("scaleNodeHeap") : null;
            String cap = heap == null ? "" : " (node heap cap " + heap + ")";
            row(t, "node RSS ≤ 1 GiB at 1.5 M schemas, under read load", String.format(Locale.ROOT, "%,d MiB",
                    rss.longValue()) + cap, rss.longValue() <= 1024);
            if (big.get("rssMiBAfterWrites") instanceof Number rw && big.get("rssMiBAfterMixed") instanceof Number rm) {
                long most = Math.max(rw.longValue(), rm.longValue());
                row(t, "node RSS ≤ 1 GiB at 1.5 M schemas, under write load and the 5 % mix",
                        String.format(Locale.ROOT, "%,d MiB after writes, %,d MiB after the mix", rw.longValue(),
                                rm.longValue()), most <= 1024);
            }
            if (big.get("fetchedSnapshotReadySeconds") instanceof Number f) {
                row(t, "fresh node from a snapshot fetched over HTTP of a 1.5 M-schema registry ready ≤ 15 s",
                        String.format(Locale.ROOT, "%.1f s", f.doubleValue()), f.doubleValue() <= 15);
            }
        }
        if (!(facts.get("scale") instanceof Map<?, ?>)) {
            t.append("| reads at 1.5 M schemas within 10 % of 100 k; RSS ≤ 1 GiB at 1.5 M | ")
                    .append(facts.containsKey("rssMiB.node-a.at1500000") ? "see the dataset table"
                            : "not in this run (`--stages scale` or `--full`)")
                    .append(" | — |\n");
        }
        return t.toString();
    }

    static void row(StringBuilder t, String target, String measured, boolean met) {
        t.append("| ").append(target).append(" | ").append(measured).append(" | ").append(met ? "met" : "**short**")
                .append(" |\n");
    }

    static String ms(long micros) {
        return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
    }

    interface Note {
        String of(Result r);
    }

    static void table(StringBuilder md, List<Result> rows, Note note) {
        md.append("| target | scenario | clients | ok/s | p50 | p90 | p99 | p99.9 | max | errors | note |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (Result r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.target(), r.scenario(), r.users(), r.throughput(), cell(r.p50()), cell(r.p90()),
                    cell(r.p99()), cell(r.p999()), cell(r.max()),
                    r.errorCount() == 0 ? "0" : r.errors().toString(), note.of(r)));
        }
    }

    /** Microseconds as milliseconds with one decimal; "—" where the load generator gave none. */
    static String cell(long micros) {
        return micros < 0 ? "—" : String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    static String ratios(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        for (Result q : results) {
            if (!q.target().startsWith("quire+") || !q.scenario().equals("writes")) {
                continue;
            }
            results.stream().filter(p -> p.target().startsWith("postgresql-sequence+") && p.users() == q.users())
                    .findFirst().ifPresent(p -> sb.append(String.format(Locale.ROOT,
                            "- %d writers, same injected latency: Quire %.0f/s vs single-row sequence %.0f/s (%.0f×)%n",
                            q.users(), q.throughput(), p.throughput(), q.throughput() / Math.max(0.001, p.throughput()))));
        }
        return sb.toString();
    }

    static void charts(Path out, List<Result> results) throws IOException {
        Map<String, List<Result>> reads = results.stream().filter(r -> r.scenario().equals("reads")
                && !r.target().contains("@")).collect(Collectors.groupingBy(Result::target, LinkedHashMap::new,
                Collectors.toList()));
        Charts.throughputVsUsers(out.resolve("reads.png"), "Reads by id: throughput vs clients", reads, false);
        Map<String, List<Result>> writes = results.stream().filter(r -> r.scenario().equals("writes"))
                .collect(Collectors.groupingBy(Result::target, LinkedHashMap::new, Collectors.toList()));
        Charts.throughputVsUsers(out.resolve("writes.png"), "Writes: throughput vs writers (log scale)", writes, true);
        Charts.latencies(out.resolve("write-latency.png"), "Write latency percentiles",
                results.stream().filter(r -> r.scenario().equals("writes")).toList());
        List<Result> scale = results.stream().filter(r -> r.target().endsWith("-journal")
                && r.extra().get("datasetSize") instanceof Number).toList();
        if (!scale.isEmpty()) {
            Map<String, Map<Integer, Double>> rate = new LinkedHashMap<>();
            Map<String, Map<Integer, Double>> rss = new LinkedHashMap<>();
            for (Result r : scale) {
                int size = ((Number) r.extra().get("datasetSize")).intValue();
                rate.computeIfAbsent(r.scenario() + " @" + r.users(), k -> new java.util.TreeMap<>())
                        .put(size, r.throughput());
                if (r.extra().get("rssMiB") instanceof Number m) {
                    rss.computeIfAbsent("after " + r.scenario(), k -> new java.util.TreeMap<>()).put(size, m.doubleValue());
                }
            }
            Charts.versusDatasetSize(out.resolve("scale-throughput.png"), "Throughput against the dataset size",
                    "successful requests / s", rate);
            Charts.versusDatasetSize(out.resolve("scale-rss.png"), "Node RSS against the dataset size", "RSS (MiB)", rss);
        }
        Charts.overTime(out.resolve("over-time.png"), "Throughput over the measured window",
                results.stream().filter(r -> r.users() == 200 && r.target().equals("quire")
                        || r.scenario().startsWith("mixed")).toList());
    }

    static double best(List<Result> results, String target, String scenario, int users) {
        return results.stream().filter(r -> r.target().equals(target) && r.scenario().equals(scenario)
                && r.users() == users).mapToDouble(Result::throughput).max().orElse(0);
    }

    static double micros(Result r, String key) {
        return ((Number) Objects.requireNonNull(r.extra().get(key))).doubleValue() / 1000.0;
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f %%", v * 100);
    }
}
