package io.quire.node.ops;

import io.quire.node.QuireNode;
import io.quire.node.config.QuireConfig;
import io.quire.node.view.snapshot.Folders;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code quire.jar rebuild}: rebuilds a stopped node's view from journal offset 0. The old view is
 * moved aside, a fresh one is built by the node's own topology and applier, and only when it has
 * caught up is the old one deleted (on failure it is put back).
 */
public final class RebuildCommand {

    private RebuildCommand() {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of());
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar rebuild --data-dir DIR --node-id ID --bootstrap-servers H:P
                           [--journal-topic T]
                    Stop the node first. Rebuilds DIR's view from journal offset 0 and reports the rate.""");
            return 0;
        }
        List<String> nodeArgs = new ArrayList<>(flags.rest);
        nodeArgs.addAll(List.of("--port", "0", "--host", "127.0.0.1"));
        QuireConfig config = QuireConfig.from(false, nodeArgs.toArray(String[]::new), System.getenv());
        Path view = config.dataDir().resolve("streams");
        Path aside = config.dataDir().resolve("streams.before-rebuild");
        if (Files.exists(aside)) {
            out.println(aside + " exists: a previous rebuild did not finish; remove or restore it first");
            return 1;
        }
        if (Files.exists(view)) {
            Files.move(view, aside);
        }
        Progress progress = new Progress(out, "rebuild");
        try (QuireNode node = new QuireNode(config, () -> { }).start()) {
            long end = node.journalEnd();
            while (!node.ready()) {
                progress.update(node.appliedOffset() + 1, end, false);
                Thread.sleep(200);
            }
            progress.update(node.appliedOffset() + 1, end, true);
            out.printf("rebuilt %d journal records in %.1f s (%.0f records/s)%n", end, progress.seconds(),
                    end / Math.max(0.001, progress.seconds()));
        } catch (Exception | Error e) {
            Folders.deleteTree(view);
            if (Files.exists(aside)) {
                Files.move(aside, view);
            }
            throw e;
        }
        Folders.deleteTree(aside);
        return 0;
    }
}
