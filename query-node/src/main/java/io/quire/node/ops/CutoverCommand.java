package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.client.RegistryClient;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Set;

/**
 * {@code quire.jar cutover --node URL}: waits until the node that follows a Confluent registry has
 * copied everything the source's topic holds, then stops following (journaled: every node sees
 * it) and the registry takes writes again. Run it after the source was set READONLY.
 */
public final class CutoverCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CutoverCommand() {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of("node", "user", "timeout-s", "global-mode"));
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar cutover --node http://quire:8081 [--user admin:password] [--timeout-s 600]
                           [--global-mode READWRITE|keep]
                    Waits until the node started with --follow-confluent has copied every record of the followed
                    registry's topic (lag 0), then stops following: Quire takes writes again, and ids it gives
                    from now on are above every id the source gave. Set the source READONLY first
                    (docs/migrate-from-confluent.md); the copied global mode is then set to --global-mode
                    (READWRITE unless keep). Exit 0 when cut over, 1 otherwise.""");
            return 0;
        }
        RegistryClient node = new RegistryClient(flags.required("node").strip(), flags.basicAuthorization(), Duration.ofSeconds(30));
        long timeoutMs = Long.parseLong(flags.own.getOrDefault("timeout-s", "600")) * 1000;
        long t0 = System.nanoTime();
        long deadline = t0 + timeoutMs * 1_000_000;
        String last = "";
        while (System.nanoTime() < deadline) {
            JsonNode f = node.getJson("/admin/follow");
            if (!f.path("following").asBoolean()) {
                out.println("the registry does not follow a registry" + (f.has("source") ? " (it cut over from "
                        + f.path("source").asText() + " already)" : ""));
                return f.has("source") ? 0 : 1;
            }
            JsonNode fw = f.path("follower");
            if (fw.isMissingNode()) {
                out.println("this node does not run the follower of " + f.path("source").asText()
                        + ": point --node at the node started with --follow-confluent");
                return 1;
            }
            String state = fw.path("state").asText();
            long lag = fw.path("lagRecords").asLong(-1);
            if ("STOPPED".equals(state)) {
                out.println("the follower stopped: " + fw.path("lastError").asText());
                return 1;
            }
            String now = state + ", " + lag + " records behind";
            if (!now.equals(last)) {
                out.println("follower " + now);
                last = now;
            }
            if ("FOLLOWING".equals(state) && lag == 0) {
                RegistryClient.Response r = node.send("POST", "/admin/follow/cutover", null);
                if (r.status() == 200) {
                    JsonNode done = JSON.readTree(r.body());
                    out.printf("cut over from %s at source offset %d (journal offset %d) in %.1f s: Quire takes writes%n",
                            done.path("source").asText(), done.path("lastSourceOffset").asLong(),
                            done.path("offset").asLong(), (System.nanoTime() - t0) / 1e9);
                    String mode = flags.own.getOrDefault("global-mode", "READWRITE");
                    if (!mode.equalsIgnoreCase("keep")) {
                        // the source was set READONLY for the move, and that record was copied too
                        RegistryClient.Response m = node.send("PUT", "/mode?force=true", "{\"mode\":\"" + mode + "\"}");
                        out.println("global mode " + (m.status() == 200 ? "set to " + mode : "not set: " + m.body()));
                        return m.status() == 200 ? 0 : 1;
                    }
                    return 0;
                }
                out.println("not yet: " + r.body());
            }
            Thread.sleep(250);
        }
        out.println("the follower did not catch up within " + timeoutMs / 1000 + " s (" + last + ")");
        return 1;
    }
}
