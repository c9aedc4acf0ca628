package io.quire.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Registrations at steady state, once the JIT has settled. */
final class SteadyStage extends Stage {

    SteadyStage(Stage shared) {
        super(shared);
    }

    // --- registrations at steady state ---------------------------------------------------------------

    /**
     * Registrations at 200 writers on a fresh node and broker per scenario, measured once the JIT
     * has settled: new subjects, and new versions of 40 subjects checked against their latest
     * version (texts distinct, and each text registered to two subjects). Short windows after a
     * short warm-up measure the compiler as much as the node: under this load C2's queue takes
     * one to two minutes to drain on two cores. Driven by wrk where it is installed (bench/run.sh
     * installs it), beside the trivial server under the same wrk: the machine's HTTP limit in
     * the same units. Without wrk, the suite's own generator, which leaves the server less CPU.
     */
    void steadyWrites() throws Exception {
        Path dir = o.out().resolve("quire-steady");
        record Scenario(String name, String script, Map<String, String> env,
                        java.util.function.Function<Workloads.Endpoint, ClosedLoop.Operation> op) {
        }
        String run = runId();
        boolean wrk = Wrk.available();
        facts.put("steadyLoadGenerator", wrk ? "wrk -t2" : "the suite's own (wrk not installed)");
        if (wrk) {
            int port = Processes.freePort();
            Process p = start(o.out().resolve("logs/trivial-wrk.log"), List.of("-Xmx512m"), "-cp", benchJar(),
                    "io.quire.bench.TrivialServer", Integer.toString(port));
            Processes.awaitLog(o.out().resolve("logs/trivial-wrk.log"), "trivial server on", Duration.ofSeconds(60));
            String url = "http://127.0.0.1:" + port;
            Wrk.run(Wrk.script("read-one.lua"), 200, (int) o.warmup().toSeconds(), url, Map.of());
            record(Wrk.parse("trivial-vertx", "reads-wrk", 200,
                    Wrk.run(Wrk.script("read-one.lua"), 200, (int) o.measure().toSeconds(), url, Map.of())));
            stop(p);
        }
        for (Scenario sc : List.of(
                new Scenario("writes-new", "register.lua", Map.of(), e -> Workloads.registerNew(client, e, "s-" + run)),
                new Scenario("writes-evolving", "evolve.lua", Map.of("EVOLVE_DISTINCT", "1"),
                        e -> Workloads.registerEvolving(client, e, "d-" + run, 40, true)),
                new Scenario("writes-evolving-repeated", "evolve.lua", Map.of(),
                        e -> Workloads.registerEvolving(client, e, "r-" + run, 40, false)))) {
            int brokerPort = Processes.freePort();
            Process broker = startBroker(dir.resolve(sc.name() + "/broker"), brokerPort, 0, "broker-" + sc.name());
            Node n = startNode("node-" + sc.name(), dir.resolve(sc.name() + "/node"), "127.0.0.1:" + brokerPort);
            JitSettle settle = new JitSettle(o.settleLimit(), n.process().pid(), broker.pid());
            Result r;
            if (wrk) {
                String url = "http://127.0.0.1:" + n.port();
                Path script = Wrk.script(sc.script());
                long t0 = System.nanoTime();
                Wrk.run(script, 200, (int) o.warmup().toSeconds(), url, sc.env());
                long settleUntil = System.nanoTime() + o.settleLimit().toNanos();
                while (System.nanoTime() < settleUntil
                        && !settle.steadyOver(() -> Wrk.run(script, 200, 10, url, sc.env()))) {
                    // not steady yet: keep warming up
                }
                double warmed = (System.nanoTime() - t0) / 1e9;
                settle.measuring();
                r = Wrk.parse("quire-steady", sc.name(), 200,
                        Wrk.run(script, 200, (int) o.measure().toSeconds(), url, sc.env()));
                r.extra().put("warmupSeconds", round(warmed));
            } else {
                r = ClosedLoop.run(vertx, "quire-steady", sc.name(), 200, o.warmup(), settle, o.measure(),
                        sc.op().apply(n.endpoint()));
            }
            String[] perRequest = {"nodeCpuMicrosPerRequest", "brokerCpuMicrosPerRequest"}; // in the order of the pids
            for (int i = 0; i < perRequest.length; i++) {
                double cpu = settle.cpuSinceWindow(i);
                if (cpu >= 0 && r.ok() > 0) {
                    r.extra().put(perRequest[i], Math.round(cpu * 1e6 / (r.ok() + r.errorCount())));
                }
            }
            double jit = settle.compilerCpu() - settle.compilerCpuAtWindow;
            r.extra().put("compilerCpuSecondsInWindow", round(jit));
            r.extra().put("settled", settle.settled);
            r.extra().put("rssMiB", Processes.rssMiB(n.process()));
            record(r);
            stop(n.process());
            stop(broker);
        }
    }

    /**
     * Steady when the compiler threads of the node and its broker used under a tenth of a core over
     * 10 s of load (what bench/cpu-compare.sh waits for). Notes the node's CPU and the compilers'
     * when the measured window starts.
     */
    static final class JitSettle implements ClosedLoop.Settle {
        /** Ten seconds of load. */
        interface Load {
            void run() throws IOException, InterruptedException;
        }

        private final Duration limit;
        private final long[] pids;
        private final double[] cpuAtWindow;
        volatile boolean settled;
        volatile double compilerCpuAtWindow;

        JitSettle(Duration limit, long... pids) {
            this.limit = limit;
            this.pids = pids;
            this.cpuAtWindow = new double[pids.length];
            java.util.Arrays.fill(cpuAtWindow, -1);
        }

        double compilerCpu() {
            double sum = 0;
            for (long pid : pids) {
                sum += Math.max(0, Processes.cpuSeconds(pid, Processes.COMPILER_THREADS));
            }
            return sum;
        }

        /** Runs {@code tenSeconds} and answers whether the compilers used under a tenth of a core meanwhile. */
        boolean steadyOver(Load tenSeconds) throws IOException, InterruptedException {
            double before = compilerCpu();
            tenSeconds.run();
            settled = compilerCpu() - before < 1.0;
            return settled;
        }

        /** The load runs on its own (the suite's generator): watch it for 10 s. */
        @Override
        public boolean watch() throws InterruptedException {
            try {
                return steadyOver(() -> Thread.sleep(10_000));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e); // a sleep does no I/O
            }
        }

        @Override
        public Duration limit() {
            return limit;
        }

        @Override
        public void measuring() {
            for (int i = 0; i < pids.length; i++) {
                cpuAtWindow[i] = Processes.cpuSeconds(pids[i]);
            }
            compilerCpuAtWindow = compilerCpu();
        }

        /** CPU seconds the i-th process used since the window opened; -1 where /proc could not tell. */
        double cpuSinceWindow(int i) {
            double now = Processes.cpuSeconds(pids[i]);
            return cpuAtWindow[i] < 0 || now < 0 ? -1 : now - cpuAtWindow[i];
        }
    }
}
