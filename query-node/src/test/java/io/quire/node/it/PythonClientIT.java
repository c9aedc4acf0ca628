package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quire.node.QuireNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Confluent's Python client, as Debian packages it (python3-confluent-kafka, installed by
 * .ci/run), against a node: its config calls and a registration work on a subject whose config
 * carries Quire's lint object. Skips itself where the package is not installed.
 */
class PythonClientIT {

    static final Path PYTHON = Path.of("/usr/bin/python3");

    static boolean clientInstalled() throws Exception {
        if (!Files.isExecutable(PYTHON)) {
            return false;
        }
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import confluent_kafka.schema_registry")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void confluentsPythonClientKeepsWorkingBesideALintConfig() throws Exception {
        assumeTrue(clientInstalled(), "Debian's python3-confluent-kafka is needed for this check");
        try (QuireNode node = Nodes.start(Nodes.config("python-client-it", Files.createTempDirectory("quire-py"),
                "py-node"))) {
            Process p = new ProcessBuilder(PYTHON.toString(), Path.of("src/test/python/lint_config.py").toString(),
                    "http://127.0.0.1:" + node.httpPort()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
            System.out.println(out);
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("ALL OK"), out);
        }
    }
}
