package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quire.node.QuireNode;
import io.quire.node.security.UsersFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The web console end to end in a real browser: Debian's headless Chromium driven by
 * playwright-core (npm; never a downloaded browser), against a node with Basic authentication.
 * The script signs in, finds a subject, diffs two versions, runs a failing and a passing
 * compatibility check, registers a version and finds it with its audit entry, switches a level as
 * admin, and as a reader is offered none of that and refused by the API (console.cjs, a line per
 * check); the cluster page shows the node beside its peer, in step. Skipped where Chromium or
 * Node.js is not installed; {@code .ci/run} installs Chromium.
 */
class ConsoleIT {

    /**
     * The folder the browser scripts run in (target/console), with these scripts and playwright-core
     * installed once; skips the test where Chromium or Node.js is missing.
     */
    static Path browserScripts(String... scripts) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromium")), "Debian's chromium is needed for this check");
        assumeTrue(ConfluentClientIT.onPath("node") && ConfluentClientIT.onPath("npm"), "Node.js and npm are needed");
        Path dir = Path.of("target", "console");
        Files.createDirectories(dir);
        List<String> files = new java.util.ArrayList<>(List.of(scripts));
        files.add("package.json");
        for (String f : files) {
            Files.copy(Path.of("src", "test", "console", f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/playwright-core"))) {
            assertEquals(0, ConfluentClientIT.run(dir, 600, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error"),
                    "npm install failed: see target/console/run.log");
        }
        return dir;
    }

    @Test
    void theConsoleDoesWhatEachRoleMayInARealBrowser() throws Exception {
        Path dir = browserScripts("console.cjs");
        Path data = Files.createTempDirectory("quire-console-it");
        Path users = data.resolve("users");
        Files.writeString(users, String.join("\n",
                "ada:" + UsersFile.hash("ada-pw".toCharArray(), 4) + ":admin",
                "wendy:" + UsersFile.hash("wendy-pw".toCharArray(), 4) + ":writer",
                "rita:" + UsersFile.hash("rita-pw".toCharArray(), 4) + ":reader"));
        try (QuireNode peer = Nodes.start(Nodes.config("console-it", data.resolve("peer"), "console-peer",
                "--auth-users-file", users.toString()));
             QuireNode node = Nodes.start(Nodes.config("console-it", data.resolve("data"), "console-node",
                "--auth-users-file", users.toString(), "--peer-nodes", "http://127.0.0.1:" + peer.httpPort()))) {
            Http wendy = new Http(node.httpPort()).as(Http.basic("wendy", "wendy-pw"));
            String id = "{\"name\":\"id\",\"type\":\"string\"}";
            assertEquals(200, wendy.post("/subjects/orders-value/versions", schemaBody(record("Order", id))).status());
            assertEquals(200, wendy.post("/subjects/orders-value/versions", schemaBody(record("Order", id,
                    "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}"))).status());
            for (String s : List.of("payments-value", "customers-value", "inventory-value")) {
                assertEquals(200, wendy.post("/subjects/" + s + "/versions", schemaBody(record("R", id))).status());
            }
            Http.Response set = wendy.post("/changesets", Http.JSON.writeValueAsString(java.util.Map.of("id", "pr-7",
                    "message", "customers get an email", "steps", List.of(java.util.Map.of("subject", "customers-value",
                            "register", java.util.Map.of("schema", record("R", id,
                                    "{\"name\":\"email\",\"type\":\"string\",\"default\":\"\"}")))))));
            assertEquals(200, set.status(), set.body());
            Nodes.await(() -> peer.appliedOffset() >= node.appliedOffset(), java.time.Duration.ofSeconds(30),
                    () -> "the peer catching up");
            Path shots = Path.of("target", "console-screenshots").toAbsolutePath();
            Files.createDirectories(shots);
            int rc = ConfluentClientIT.run(dir, 240, "node", "console.cjs", "http://127.0.0.1:" + node.httpPort(),
                    shots.toString());
            String out = Files.readString(dir.resolve("run.log"));
            System.out.println(out);
            assertEquals(0, rc, out);
            assertTrue(out.contains("ALL OK"), out);
            assertTrue(Files.size(shots.resolve("subject.png")) > 10_000, "a screenshot of the subject page");
        }
    }
}
