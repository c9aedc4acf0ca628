package io.quire.node;

import io.quire.node.config.ConfigKey;
import io.quire.node.config.QuireConfig;
import io.quire.node.kafka.EmbeddedKafka;
import io.quire.node.ops.AuditCommand;
import io.quire.node.ops.CutoverCommand;
import io.quire.node.ops.ImportApicurioCommand;
import io.quire.node.ops.ImportConfluentCommand;
import io.quire.node.ops.JournalCommand;
import io.quire.node.ops.PromoteCommand;
import io.quire.node.ops.RebuildCommand;
import io.quire.node.ops.SchemasCommand;
import io.quire.node.ops.SnapshotCommand;
import io.quire.node.ops.VerifyCommand;
import io.quire.node.security.UsersFile;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar quire.jar dev|serve|config}. {@code dev} starts an in-process single-node Kafka
 * broker and one node, all state under the data dir; {@code serve} joins an existing Kafka.
 */
public final class Main {

    /**
     * The logger, loaded on first use: a JVM that only relaunches the node ({@link Relaunch}) never
     * loads the logging framework, which took ~34 MiB of its RSS while it waited (88 MiB, 54 without).
     */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(Main.class);
    }

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        if ((command.equals("dev") || command.equals("serve")) && !wantsHelp(rest) && Relaunch.wanted()) {
            // before anything else is loaded: this JVM only waits for the node's
            System.exit(Relaunch.run(Relaunch.budget(rest, System.getenv()), args));
            return;
        }
        if ((command.equals("dev") || command.equals("serve")) && !wantsHelp(rest)) {
            QuireConfig config;
            try {
                config = QuireConfig.from(command.equals("dev"), rest, System.getenv());
            } catch (IllegalArgumentException e) {
                System.err.println("error: " + e.getMessage());
                System.err.println("usage: java -jar quire.jar " + command + " [--flag value ...]  (flags: java -jar quire.jar config)");
                System.exit(2);
                return;
            }
            Relaunch.watchParent();
            run(config);
            return;
        }
        int code = execute(command, rest, System.in, System.out, System.err);
        if (code == 0 && command.equals("broker") && !wantsHelp(rest)) {
            new CountDownLatch(1).await(); // the broker runs until the process is stopped
        }
        System.exit(code);
    }

    /**
     * Runs every command but the servers: {@code --help} prints a usage text, bad arguments a
     * one-line error and the usage (exit 2), a failure its message (exit 1); never a stack trace.
     */
    static int execute(String command, String[] rest, InputStream in, PrintStream out,
                       PrintStream err) {
        try {
            return switch (command) {
                case "dev", "serve" -> {
                    out.println("usage: java -jar quire.jar " + command + " [--flag value ...]\n");
                    out.print(ConfigKey.markdownTable());
                    yield 0;
                }
                case "config" -> {
                    out.print(ConfigKey.markdownTable());
                    yield 0;
                }
                case "audit" -> AuditCommand.run(rest, out);
                case "broker" -> broker(rest, out);
                case "verify" -> VerifyCommand.run(rest, out);
                case "rebuild" -> RebuildCommand.run(rest, out);
                case "journal" -> JournalCommand.run(rest, out);
                case "snapshot" -> SnapshotCommand.run(rest, out);
                case "import-confluent" -> ImportConfluentCommand.run(rest, out);
                case "import-apicurio" -> ImportApicurioCommand.run(rest, out);
                case "cutover" -> CutoverCommand.run(rest, out);
                case "promote" -> PromoteCommand.run(rest, out);
                case "plan" -> SchemasCommand.plan(rest, out);
                case "apply" -> SchemasCommand.apply(rest, out);
                case "dump" -> SchemasCommand.dump(rest, out);
                case "hash-password" -> hashPassword(rest, in, out);
                case "help", "--help", "-h" -> {
                    out.print(USAGE);
                    yield 0;
                }
                default -> {
                    err.println("error: unknown command '" + command + "'");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException | DateTimeParseException
                 | ArrayIndexOutOfBoundsException e) { // a flag's value that is not a number, a date, or missing
            err.println("error: " + (e instanceof ArrayIndexOutOfBoundsException ? "a flag is missing its value"
                    : e.getMessage()));
            err.println("usage: java -jar quire.jar " + command + " --help");
            return 2;
        } catch (Exception e) {
            err.println("error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            Log.LOG.debug("{} failed", command, e);
            return 1;
        }
    }

    private static boolean wantsHelp(String[] args) {
        return Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h");
    }

    private static final String USAGE = """
            usage: java -jar quire.jar <command> [--flag value ...]   (<command> --help for its flags)
              dev      in-process Kafka broker + one node, state under --data-dir (default ./quire-data)
              serve    one node against an existing Kafka (--bootstrap-servers)
              config   print every setting, its environment variable and default
              audit    print the audit trail from the journal (--help for filters)
              verify   compare the position digests of nodes (and of an offline rebuild)
              rebuild  rebuild a stopped node's view from journal offset 0
              journal export|import   the journal as NDJSON, offsets preserved
              snapshot --node URL   a snapshot of a running node's view (start new nodes from it)
              import-confluent   copy a Confluent Schema Registry (_schemas topic) into Quire, ids kept
              import-apicurio    copy an Apicurio Registry 3 (its export zip) into Quire, content and global ids kept
              cutover --node URL   stop following a Confluent registry (serve --follow-confluent) once caught up
              promote --node URL   make a follower region (serve --journal-follow) the primary
              plan|apply|dump --registry URL --dir DIR   schemas as code: a folder of schemas planned against,
                       applied to, or dumped from any registry that speaks Confluent's API
              broker --data-dir DIR [--port P] [--advertised-port A] [--node-id N --controller true|false
                     --controller-port C --voters 1@127.0.0.1:C --cluster-id ID --internal-replication R]
                     [--host ADDRESS]  (the address it listens on and advertises; default 127.0.0.1)
                       a KRaft broker alone: dev mode's, or one of a local cluster (compose/local-cluster.sh)
              hash-password [--cost N]   read a password on stdin, print its bcrypt hash
            """;

    private static final Set<String> BROKER_FLAGS = Set.of("--data-dir", "--port",
            "--advertised-port", "--node-id", "--controller", "--controller-port", "--voters", "--cluster-id",
            "--internal-replication", "--host");

    /** Starts a broker and returns at once; the JVM stays up with it until it is stopped. */
    private static int broker(String[] args, PrintStream out) throws Exception {
        if (wantsHelp(args)) {
            out.println("usage: java -jar quire.jar broker --data-dir DIR [--port P] [--advertised-port A] [--node-id N"
                    + " --controller true|false --controller-port C --voters 1@127.0.0.1:C --cluster-id ID"
                    + " --internal-replication R] [--host ADDRESS]");
            return 0;
        }
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!BROKER_FLAGS.contains(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
            flags.put(args[i], args[i + 1]);
        }
        EmbeddedKafka.Spec spec = new EmbeddedKafka.Spec(Integer.parseInt(flags.getOrDefault("--node-id", "1")),
                Boolean.parseBoolean(flags.getOrDefault("--controller", "true")),
                Integer.parseInt(flags.getOrDefault("--port", "0")),
                Integer.parseInt(flags.getOrDefault("--controller-port", "0")),
                Integer.parseInt(flags.getOrDefault("--advertised-port", "0")), flags.get("--voters"),
                flags.get("--cluster-id"), Integer.parseInt(flags.getOrDefault("--internal-replication", "1")),
                flags.get("--host"));
        EmbeddedKafka kafka = new EmbeddedKafka(Path.of(flags.getOrDefault("--data-dir", "./quire-broker")),
                spec).start();
        Log.LOG.info("broker ready at {}", kafka.bootstrapServers());
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "quire-broker-shutdown"));
        return 0;
    }

    private static int hashPassword(String[] args, InputStream in, PrintStream out)
            throws IOException {
        if (wantsHelp(args)) {
            out.println("usage: java -jar quire.jar hash-password [--cost N]   (reads the password on standard input;"
                    + " N from 4 to 31, default 12)");
            return 0;
        }
        int cost = 12;
        if (args.length == 2 && args[0].equals("--cost")) {
            cost = Integer.parseInt(args[1]);
        } else if (args.length != 0) {
            throw new IllegalArgumentException("unexpected argument '" + args[0] + "'");
        }
        if (cost < 4 || cost > 31) {
            throw new IllegalArgumentException("--cost must be between 4 and 31");
        }
        Console console = in == System.in ? System.console() : null;
        char[] password;
        if (console != null) {
            password = console.readPassword("password: ");
        } else {
            String line = new BufferedReader(new InputStreamReader(in,
                    StandardCharsets.UTF_8)).readLine();
            password = line == null ? null : line.toCharArray();
        }
        if (password == null || password.length == 0) {
            throw new IllegalArgumentException("no password on standard input");
        }
        out.println(UsersFile.hash(password, cost));
        return 0;
    }

    private static void run(QuireConfig config) throws Exception {
        EmbeddedKafka kafka = null;
        if (config.dev()) {
            kafka = new EmbeddedKafka(config.dataDir().resolve("kafka")).start();
            config = config.withBootstrapServers(kafka.bootstrapServers());
        }
        Log.LOG.info(config.view().budget(Relaunch.relaunched()).describe(Runtime.getRuntime().maxMemory() >> 20));
        QuireNode node = new QuireNode(config, () -> {
            Log.LOG.error("the view stopped with an error; exiting");
            Runtime.getRuntime().halt(3);
        }).start();
        EmbeddedKafka broker = kafka;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.shutdownGracefully();
            if (broker != null) {
                broker.close();
            }
            stopped.countDown();
        }, "quire-shutdown"));
        node.awaitReady(Duration.ofHours(24));
        Log.LOG.info("Quire is ready on http://{}:{}/ (applied offset {})", config.host(), node.httpPort(),
                node.appliedOffset());
        stopped.await();
    }
}
