package io.quire.node.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.outcome.Outcome;
import io.quire.node.config.MemoryBudget;
import io.quire.node.view.apply.ApplyListener;
import io.quire.node.view.apply.ApplyTimings;
import io.quire.node.view.store.StoreMemory;
import io.quire.node.write.WriteMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/** Every meter of a node, its name and its tags, in one place. The applier itself records nothing. */
public final class QuireMetrics implements ApplyListener, WriteMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ConcurrentMap<String, Counter> commands = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Timer> http = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> reconciles = new ConcurrentHashMap<>();
    private final Counter conflicts;
    private final Timer leases;

    public QuireMetrics() {
        conflicts = Counter.builder("quire.write.conflicts")
                .description("Writes re-checked and resubmitted because the subject changed under them")
                .register(registry);
        leases = Timer.builder("quire.id.lease")
                .description("Time to lease one id block through the journal (submit, append, apply)")
                .register(registry);
    }

    public void idLease(long nanos) {
        leases.record(Duration.ofNanos(nanos));
    }

    /** One reconcile of a {@code Schema} resource, by its result (the Synced condition's reason). */
    public void schemaReconciled(String result) {
        reconciles.computeIfAbsent(result, r -> Counter.builder("quire.schema.reconciles")
                .description("Reconciles of Schema resources by result (the Synced condition's reason)")
                .tag("result", r).register(registry)).increment();
    }

    /** Whether this node holds the lease to reconcile Schema resources (1) or not (0). */
    public void bindSchemaLease(BooleanSupplier held) {
        Gauge.builder("quire.schema.reconciler.leader", () -> held.getAsBoolean() ? 1 : 0)
                .description("1 on the node that reconciles Schema resources now, else 0").register(registry);
    }

    /** Gauges read from the node's state when scraped. */
    public void bind(LongSupplier appliedOffset, LongSupplier applyLag, LongSupplier corruptSkipped,
                     LongSupplier idLeases) {
        Gauge.builder("quire.journal.applied.offset", appliedOffset::getAsLong)
                .description("Offset of the last journal record applied to this node's view").register(registry);
        Gauge.builder("quire.journal.apply.lag", applyLag::getAsLong)
                .description("Journal records written but not yet applied here (refreshed every few seconds)")
                .register(registry);
        Gauge.builder("quire.journal.corrupt.skipped", corruptSkipped::getAsLong)
                .description("Unreadable journal records applied as rejections (skip-corrupt-records on)")
                .register(registry);
        Gauge.builder("quire.id.leases", idLeases::getAsLong)
                .description("Id blocks this node leased since it started").register(registry);
    }

    /**
     * The view store's RocksDB memory by kind (NaN while no store is open), and the JVM's own
     * memory pools: together with the process's resident size they tell where a node's memory goes
     * (docs/capacity-planning.md).
     */
    /** The node's memory budget and its shares (docs/operations.md#memory). */
    public void bindBudget(MemoryBudget budget) {
        Gauge.builder("quire.memory.budget.bytes", () -> (double) (budget.budgetMib() << 20))
                .description("The node's memory budget: --memory-mib, the container's limit, or the default")
                .tag("source", budget.source()).register(registry);
        Gauge.builder("quire.memory.heap.limit.bytes", () -> (double) Runtime.getRuntime().maxMemory())
                .description("The heap's limit (-Xmx, set from the budget when the node was started without one)")
                .register(registry);
        Gauge.builder("quire.memory.view.budget.bytes", () -> (double) (budget.viewMib() << 20))
                .description("The view's RocksDB budget (--view-memory-mib)").register(registry);
    }

    /** Commands whose search terms a catch-up kept and the index has not filed yet. */
    public void bindSearchIndex(LongSupplier kept) {
        Gauge.builder("quire.search.index.kept", () -> {
            long v = kept.getAsLong();
            return v < 0 ? Double.NaN : v;
        }).description("Commands whose search terms the view's catch-up kept and the index has not filed yet "
                + "(0: complete; searches answer 503 until then)").register(registry);
    }

    public void bindMemory(ToLongFunction<StoreMemory> view,
                           LongSupplier compactions) {
        Gauge.builder("quire.view.compactions", () -> {
            long v = compactions.getAsLong();
            return v < 0 ? Double.NaN : v;
        }).description("Compactions of the view's RocksDB running or pending (0: its files are settled)")
                .register(registry);
        for (StoreMemory m : StoreMemory.values()) {
            Gauge.builder("quire.view.memory.bytes", () -> {
                long v = view.applyAsLong(m);
                return v < 0 ? Double.NaN : v;
            }).description("RocksDB memory of the view store, by kind (memtables are charged to the block cache)")
                    .tag("kind", m.name().toLowerCase(Locale.ROOT).replace('_', '-')).register(registry);
        }
        new JvmMemoryMetrics().bindTo(registry);
        Gauge.builder("quire.process.resident.bytes", QuireMetrics::residentBytes)
                .description("Resident set size of the node's process (Linux; NaN elsewhere)").register(registry);
    }

    /**
     * The view's size on disk and in keys (NaN while no store is open), and whether this node
     * answers ready: what the alert rules and the dashboard in {@code compose/monitoring} read.
     */
    public void bindView(LongSupplier diskBytes, LongSupplier keys, LongSupplier ready) {
        Gauge.builder("quire.view.disk.bytes", () -> orNaN(diskBytes.getAsLong()))
                .description("Bytes of the view's files on this node's disk: RocksDB's table files and the copy of bodies by id").register(registry);
        Gauge.builder("quire.view.keys", () -> orNaN(keys.getAsLong()))
                .description("RocksDB's estimate of the keys in this node's view").register(registry);
        Gauge.builder("quire.node.ready", ready::getAsLong)
                .description("1 while this node answers /health/ready with 200, else 0").register(registry);
    }

    /** Fetches of the identity provider's key set (each an HTTP request to it). */
    public <T> void bindOidc(T verifier, ToLongFunction<T> keyFetches) {
        // the verifier itself as the counter's state: Micrometer keeps it only weakly, and the
        // authenticator keeps it alive for as long as the node runs
        FunctionCounter.builder("quire.auth.key.fetches", verifier,
                        v -> keyFetches.applyAsLong(v))
                .description("HTTP fetches of the OpenID Connect provider's key set (JWKS)").register(registry);
    }

    /** The follower of a Confluent registry: records behind the source, seconds behind, records copied. */
    public <T> void bindFollow(T follower, ToLongFunction<T> lagRecords,
                               ToDoubleFunction<T> lagSeconds, ToLongFunction<T> copied) {
        Gauge.builder("quire.follow.lag.records", follower, f -> (double) lagRecords.applyAsLong(f))
                .description("Records of the followed registry's topic not yet copied here (-1: end unknown)").register(registry);
        Gauge.builder("quire.follow.lag.seconds", follower, lagSeconds)
                .description("Age of the source record copied last, while behind (0 when caught up)").register(registry);
        FunctionCounter.builder("quire.follow.records.copied", follower,
                        f -> copied.applyAsLong(f))
                .description("Source records copied into the journal by this node").register(registry);
    }

    private static double orNaN(long v) {
        return v < 0 ? Double.NaN : v;
    }

    /** The process's resident set, VmRSS of /proc/self/status (given in kB). */
    static double residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").trim()) * 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable
        }
        return Double.NaN;
    }

    /**
     * The applier thread's time by phase (decode, apply, view reads, store writes, listeners, and
     * between records: Kafka Streams and its consumer), as counters of seconds.
     */
    public void bindApplyTimings(ApplyTimings timings) {
        for (ApplyTimings.Phase p : ApplyTimings.Phase.values()) {
            FunctionCounter.builder("quire.journal.apply.phase.seconds", timings,
                            t -> t.seconds(p))
                    .description("Time the applier thread spent in each phase of applying journal records")
                    .tag("phase", p.name().toLowerCase(Locale.ROOT)).register(registry);
        }
    }

    @Override
    public void applied(Offset offset, Envelope envelope, Outcome outcome) {
        String type = envelope == null ? "Unreadable" : envelope.command().type().wireName;
        String key = type + '/' + outcome.type().wireName;
        commands.computeIfAbsent(key, k -> Counter.builder("quire.journal.commands")
                .description("Journal commands applied, by command type and outcome")
                .tag("type", type).tag("outcome", outcome.type().wireName).register(registry)).increment();
    }

    @Override
    public void writeConflict() {
        conflicts.increment();
    }

    /** Methods that get a tag of their own; any other is counted as OTHER, so tags stay bounded. */
    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE", "HEAD",
            "OPTIONS", "PATCH");

    /**
     * Fixed latency buckets of every HTTP timer ({@code quire_http_requests_seconds_bucket}), so that
     * Prometheus can compute percentiles across nodes; nine buckets keep the series few.
     */
    private static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(1000), Duration.ofMillis(5000)};

    public void httpRequest(String anyMethod, String route, int anyStatus, long nanos) {
        httpTimer(anyMethod, route, anyStatus).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The timer of one method, route template and status (the one {@link #httpRequest} records to). */
    public Timer httpTimer(String anyMethod, String route, int anyStatus) {
        String method = METHODS.contains(anyMethod) ? anyMethod : "OTHER";
        int status = anyStatus < 100 || anyStatus > 599 ? 0 : anyStatus;
        String key = method + ' ' + route + ' ' + status;
        return http.computeIfAbsent(key, k -> Timer.builder("quire.http.requests")
                .description("HTTP requests by route template and status")
                .tag("method", method).tag("route", route).tag("status", Integer.toString(status))
                .publishPercentileHistogram(false)
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry));
    }

    public String scrape() {
        return registry.scrape();
    }

    /** One point of the recent history the console charts: when, how far applied, where the journal ends, requests so far. */
    public record Sample(long atMillis, long appliedOffset, long journalEnd, long requests) {
    }

    /** Samples kept: ten minutes at one every {@link #SAMPLE_SECONDS} s. */
    public static final int SAMPLES = 120;
    public static final int SAMPLE_SECONDS = 5;

    private final ArrayDeque<Sample> recent = new ArrayDeque<>();

    /** Records a sample (the node calls this every {@link #SAMPLE_SECONDS} s); the oldest goes beyond {@link #SAMPLES}. */
    public void sample(long atMillis, long appliedOffset, long journalEnd) {
        long requests = 0;
        for (Timer t : http.values()) {
            requests += t.count();
        }
        Sample s = new Sample(atMillis, appliedOffset, journalEnd, requests);
        synchronized (recent) {
            recent.addLast(s);
            while (recent.size() > SAMPLES) {
                recent.removeFirst();
            }
        }
    }

    /** The recent samples, oldest first. */
    public List<Sample> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }
}
