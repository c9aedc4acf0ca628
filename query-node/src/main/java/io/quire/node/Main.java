package io.quire.node;

import io.quire.node.config.ConfigKey;
import io.quire.node.config.QuireConfig;
import io.quire.node.kafka.EmbeddedKafka;
import io.quire.node.ops.AuditCommand;
import io.quire.node.ops.ImportConfluentCommand;
import io.quire.node.ops.JournalCommand;
import io.quire.node.ops.RebuildCommand;
import io.quire.node.ops.SnapshotCommand;
import io.quire.node.ops.VerifyCommand;
import io.quire.node.security.UsersFile;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar quire.jar dev|serve|config}. {@code dev} starts an in-process single-node Kafka
 * broker and one node, all state under the data dir; {@code serve} joins an existing Kafka.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (command) {
            case "dev" -> run(QuireConfig.from(true, rest, System.getenv()));
            case "serve" -> run(QuireConfig.from(false, rest, System.getenv()));
            case "config" -> System.out.print(ConfigKey.markdownTable());
            case "audit" -> System.exit(AuditCommand.run(rest, System.out));
            case "broker" -> broker(rest);
            case "verify" -> System.exit(VerifyCommand.run(rest, System.out));
            case "rebuild" -> System.exit(RebuildCommand.run(rest, System.out));
            case "journal" -> System.exit(JournalCommand.run(rest, System.out));
            case "snapshot" -> System.exit(SnapshotCommand.run(rest, System.out));
            case "import-confluent" -> System.exit(ImportConfluentCommand.run(rest, System.out));
            case "hash-password" -> hashPassword(rest);
            default -> {
                System.out.println("""
                        usage: java -jar quire.jar <command> [--flag value ...]
                          dev      in-process Kafka broker + one node, state under --data-dir (default ./quire-data)
                          serve    one node against an existing Kafka (--bootstrap-servers)
                          config   print every setting, its environment variable and default
                          audit    print the audit trail from the journal (--help for filters)
                          verify   compare the position digests of nodes (and of an offline rebuild)
                          rebuild  rebuild a stopped node's view from journal offset 0
                          journal export|import   the journal as NDJSON, offsets preserved
                          snapshot --node URL   a snapshot of a running node's view (start new nodes from it)
                          import-confluent   copy a Confluent Schema Registry (_schemas topic) into Quire, ids kept
                          broker --data-dir DIR [--port P] [--advertised-port A] [--node-id N --controller true|false
                                 --controller-port C --voters 1@127.0.0.1:C --cluster-id ID --internal-replication R]
                                   a KRaft broker alone: dev mode's, or one of a local cluster (compose/local-cluster.sh)
                          hash-password [--cost N]   read a password on stdin, print its bcrypt hash
                        """);
                if (!command.equals("help") && !command.equals("--help")) {
                    System.exit(2);
                }
            }
        }
    }

    private static void broker(String[] args) throws Exception {
        java.util.Map<String, String> flags = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            flags.put(args[i], args[i + 1]);
        }
        EmbeddedKafka.Spec spec = new EmbeddedKafka.Spec(Integer.parseInt(flags.getOrDefault("--node-id", "1")),
                Boolean.parseBoolean(flags.getOrDefault("--controller", "true")),
                Integer.parseInt(flags.getOrDefault("--port", "0")),
                Integer.parseInt(flags.getOrDefault("--controller-port", "0")),
                Integer.parseInt(flags.getOrDefault("--advertised-port", "0")), flags.get("--voters"),
                flags.get("--cluster-id"), Integer.parseInt(flags.getOrDefault("--internal-replication", "1")));
        EmbeddedKafka kafka = new EmbeddedKafka(java.nio.file.Path.of(flags.getOrDefault("--data-dir", "./quire-broker")),
                spec).start();
        LOG.info("broker ready at {}", kafka.bootstrapServers());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kafka.close();
            stopped.countDown();
        }, "quire-broker-shutdown"));
        stopped.await();
    }

    private static void hashPassword(String[] args) throws java.io.IOException {
        int cost = args.length == 2 && args[0].equals("--cost") ? Integer.parseInt(args[1]) : 12;
        java.io.Console console = System.console();
        char[] password = console != null ? console.readPassword("password: ")
                : new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))
                        .readLine().toCharArray();
        System.out.println(UsersFile.hash(password, cost));
    }

    private static void run(QuireConfig config) throws Exception {
        EmbeddedKafka kafka = null;
        if (config.dev()) {
            kafka = new EmbeddedKafka(config.dataDir().resolve("kafka")).start();
            config = config.withBootstrapServers(kafka.bootstrapServers());
        }
        QuireNode node = new QuireNode(config, () -> {
            LOG.error("the view stopped with an error; exiting");
            Runtime.getRuntime().halt(3);
        }).start();
        EmbeddedKafka broker = kafka;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            if (broker != null) {
                broker.close();
            }
            stopped.countDown();
        }, "quire-shutdown"));
        node.awaitReady(Duration.ofHours(24));
        LOG.info("Quire is ready on http://{}:{}/ (applied offset {})", config.host(), node.httpPort(),
                node.appliedOffset());
        stopped.await();
    }
}
