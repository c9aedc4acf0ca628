package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.client.RegistryClient;
import io.quire.node.config.QuireConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code quire.jar verify}: asks nodes for their (applied offset, position digest), waits until they
 * all stand at the same offset, and compares. With {@code --bootstrap-servers} it also rebuilds the
 * journal offline and compares the nodes with that. Exit 0 only if everything is identical.
 */
public final class VerifyCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private VerifyCommand() {
    }

    record Position(String node, long offset, String digest, int digestVersion) {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of("nodes", "timeout-s", "user", "content"));
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar verify --nodes http://a:8081,http://b:8081 [--timeout-s 60]
                           [--user name:password] [--bootstrap-servers H:P --journal-topic T] [--content true]
                    Waits until the nodes have applied the same journal offset, then compares their position
                    digests; with --bootstrap-servers also against an offline rebuild of the journal.
                    With --content true (nodes of different regions: a mirrored journal has other offsets) it
                    compares digests of the registry's content instead, until they agree or the timeout.
                    Exit 0 when identical, 1 when they differ or never meet.""");
            return 0;
        }
        if (Boolean.parseBoolean(flags.own.getOrDefault("content", "false"))) {
            return content(flags, out);
        }
        List<RegistryClient> nodes = nodes(flags, Duration.ofSeconds(10));
        long timeoutMs = Long.parseLong(flags.own.getOrDefault("timeout-s", "60")) * 1000;

        long deadline = System.currentTimeMillis() + timeoutMs;
        List<Position> positions = poll(nodes);
        List<Position> previous = null;
        while (!(sameOffset(positions) && positions.equals(previous))) {
            if (System.currentTimeMillis() > deadline) {
                out.println("nodes did not reach a common offset within " + timeoutMs / 1000 + " s: " + positions);
                return 1;
            }
            Thread.sleep(500);
            previous = positions;
            positions = poll(nodes);
        }
        positions.forEach(p -> out.printf("%-32s offset %d digest %s (v%d)%n", p.node(), p.offset(), p.digest(),
                p.digestVersion()));
        if (positions.stream().map(Position::digestVersion).distinct().count() > 1) {
            out.println("NOT COMPARABLE: the nodes' digests are of different versions (a view started before an "
                    + "upgrade keeps its version); rebuild the older node(s) to compare");
            return 1;
        }
        boolean same = positions.stream().map(Position::digest).distinct().count() == 1;
        if (!same) {
            out.println("DIFFERENT: the nodes stand at the same offset with different digests");
            return 1;
        }
        if (!flags.rest.isEmpty()) {
            QuireConfig config = QuireConfig.from(false, flags.rest.toArray(String[]::new), System.getenv());
            OfflineRebuild.Result rebuilt = OfflineRebuild.rebuild(config.kafkaProperties(), config.journalTopic());
            String digest = rebuilt.view().position().digestHex();
            long offset = rebuilt.view().position().offset().value();
            out.printf("%-32s offset %d digest %s (v%d)%n", "offline rebuild", offset, digest,
                    rebuilt.view().position().digestVersion());
            if (rebuilt.view().position().digestVersion() != positions.get(0).digestVersion()) {
                out.println("NOT COMPARABLE: the nodes keep digest version " + positions.get(0).digestVersion()
                        + " from before an upgrade; rebuild them to compare with a rebuild");
                return 1;
            }
            if (offset != positions.get(0).offset() || !digest.equals(positions.get(0).digest())) {
                out.println("DIFFERENT: the nodes do not match an offline rebuild of the journal"
                        + (offset != positions.get(0).offset() ? " (the journal moved on; verify with no writes)" : ""));
                return 1;
            }
        }
        out.println("IDENTICAL: " + positions.size() + " node(s) at offset " + positions.get(0).offset());
        return 0;
    }

    /** Content digests of nodes in different regions: equal once the follower has applied what the primary has. */
    static int content(Flags flags, PrintStream out) throws Exception {
        List<RegistryClient> nodes = nodes(flags, Duration.ofSeconds(60));
        long deadline = System.currentTimeMillis() + Long.parseLong(flags.own.getOrDefault("timeout-s", "60")) * 1000;
        while (true) {
            List<JsonNode> digests = new ArrayList<>();
            for (RegistryClient n : nodes) {
                digests.add(n.getJson("/admin/view-digest?content=true"));
            }
            boolean same = digests.stream().map(j -> j.path("contentDigest").asText()).distinct().count() == 1;
            if (same || System.currentTimeMillis() > deadline) {
                for (int i = 0; i < nodes.size(); i++) {
                    out.printf("%-32s offset %d content %s%n", nodes.get(i).base(), digests.get(i).path("offset").asLong(),
                            digests.get(i).path("contentDigest").asText());
                }
                out.println(same ? "IDENTICAL CONTENT: " + nodes.size() + " node(s)"
                        : "DIFFERENT CONTENT: the nodes' content did not agree within the timeout");
                return same ? 0 : 1;
            }
            Thread.sleep(500);
        }
    }

    static List<RegistryClient> nodes(Flags flags, Duration timeout) {
        List<RegistryClient> nodes = new ArrayList<>();
        for (String n : flags.required("nodes").split(",")) {
            nodes.add(new RegistryClient(n, flags.basicAuthorization(), timeout));
        }
        return nodes;
    }

    static boolean sameOffset(List<Position> ps) {
        return ps.stream().map(Position::offset).distinct().count() == 1;
    }

    static List<Position> poll(List<RegistryClient> nodes) throws Exception {
        List<Position> out = new ArrayList<>();
        for (RegistryClient n : nodes) {
            JsonNode j = n.getJson("/admin/position");
            out.add(new Position(n.base(), j.get("offset").asLong(), j.get("digest").asText(),
                    j.path("digestVersion").asInt(1)));
        }
        return out;
    }
}
