package io.quire.bench.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The short partition drill (docs/reliability.md): the cluster of {@code bench/partition/cluster.sh}
 * (three brokers, three nodes, each in a network namespace) under a seeded schedule of faults while
 * nine clients write and read; the checker finds no anomaly. Then the same drill against a build
 * broken on purpose (answers before the write is applied; hands every id out twice with the
 * applier's check off): the checker must find anomalies in each. Skipped
 * where network namespaces or nftables are not available (not root, no iproute2 or nft).
 */
class PartitionDrillIT {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path SCRIPT = ROOT.resolve("bench/partition/cluster.sh");
    static final Path JAR = ROOT.resolve("query-node/target/quire.jar");
    static final Path STATE = Path.of("target", "drill-cluster").toAbsolutePath();

    static int sh(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", "drill-cluster.log").toFile()));
        pb.environment().put("DRILL_DIR", STATE.toString());
        pb.environment().put("QUIRE_JAR", JAR.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    @BeforeAll
    static void canMakeNamespaces() throws Exception {
        boolean tools = Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"));
        boolean nft = Files.isExecutable(Path.of("/usr/sbin/nft"));
        Assumptions.assumeTrue(tools && nft && Files.exists(JAR), "needs iproute2, nftables and quire.jar");
        Assumptions.assumeTrue(sh(Map.of(), "ip", "netns", "add", "qd-probe") == 0, "cannot make network namespaces here");
        sh(Map.of(), "ip", "netns", "del", "qd-probe");
    }

    @AfterAll
    static void down() throws Exception {
        sh(Map.of(), "bash", SCRIPT.toString(), "down");
    }

    static int drill(Path out, int seconds, long seed) throws Exception {
        System.setProperty("quire.drill.dir", STATE.toString());
        return new PartitionDrill().run(seconds, seed, 9, 5_000, 3_000, 8_000, out, SCRIPT);
    }

    @Test
    void theCheckerFindsNothingUnderFaultsAndCatchesABuildThatAnswersBeforeApplying() throws Exception {
        assertEquals(0, sh(Map.of(), "bash", SCRIPT.toString(), "up"), "cluster up: see target/drill-cluster.log");
        Path out = Path.of("target", "drill");
        Files.createDirectories(out);
        int code = drill(out, 45, 1);
        String report = Files.readString(out.resolve("report.md"));
        assertEquals(0, code, report);
        assertTrue(report.contains("## Anomalies: 0"), report);
        assertTrue(report.contains("REGISTER OK"), report);
        assertTrue(Files.size(out.resolve("timeline.png")) > 10_000);
        // the clients did real work: 972 to 5,111 operations in 45 s here, most of it between faults
        assertTrue(Files.readAllLines(out.resolve("history.tsv")).size() > 300);

        int answerBeforeApply = broken("answer-before-apply", 3, "acknowledged registration lost or changed");
        int reuseIds = broken("reuse-ids", 5, "means two schemas");
        System.out.printf("partition drill: %s; the broken builds: answer-before-apply %d anomalies, reuse-ids %d%n",
                report.lines().filter(l -> l.startsWith("Seed")).findFirst().orElse(""), answerBeforeApply, reuseIds);
    }

    /** A fresh cluster of a build broken on purpose; the checker must fail it with {@code expected} among its anomalies. */
    static int broken(String breakName, long seed, String expected) throws Exception {
        sh(Map.of(), "bash", SCRIPT.toString(), "down");
        assertEquals(0, sh(Map.of("QUIRE_TEST_BREAK", breakName), "bash", SCRIPT.toString(), "up"));
        Path out = Path.of("target", "drill-" + breakName);
        Files.createDirectories(out);
        assertEquals(1, drill(out, 20, seed), "the checker finds the anomalies of " + breakName);
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains(expected), report.substring(0, Math.min(3_000, report.length())));
        return (int) report.lines().filter(l -> l.startsWith("* ")).count();
    }
}
