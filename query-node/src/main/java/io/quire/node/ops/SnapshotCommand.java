package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.client.RegistryClient;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Set;

/**
 * {@code quire.jar snapshot}: asks a running node for a snapshot of its view (a RocksDB checkpoint
 * and a manifest under the node's {@code <data-dir>/snapshots}) and prints where it is. A new node
 * started with {@code --bootstrap-snapshot <that folder>} replays only the journal after it.
 */
public final class SnapshotCommand {

    private SnapshotCommand() {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of("node", "user"));
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar snapshot --node http://host:8081 [--user name:password]
                    Writes a consistent snapshot of the node's view into <its data-dir>/snapshots/snapshot-<offset>
                    and prints its offset, digest and path. Start a fresh node from it with
                    --bootstrap-snapshot <path> (QUIRE_BOOTSTRAP_SNAPSHOT).""");
            return 0;
        }
        RegistryClient node = new RegistryClient(flags.required("node"), flags.basicAuthorization(), Duration.ofMinutes(10));
        long started = System.nanoTime();
        RegistryClient.Response r = node.send("POST", "/admin/snapshot", null);
        if (r.status() != 200) {
            out.println("snapshot failed: " + r.status() + " " + r.body());
            return 1;
        }
        JsonNode j = new ObjectMapper().readTree(r.body());
        out.printf("snapshot at offset %d (digest %s), %d bytes, in %d ms%n%s%n", j.path("offset").asLong(),
                j.path("digest").asText(), j.path("bytes").asLong(), (System.nanoTime() - started) / 1_000_000,
                j.path("path").asText());
        return 0;
    }
}
