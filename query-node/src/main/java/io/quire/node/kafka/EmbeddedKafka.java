package io.quire.node.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft broker (combined broker and controller) in this JVM, its log under
 * {@code dir}. The first start formats the directory and records the chosen ports, so a restart
 * comes back on the same address with the same data.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

    /** The log cleaner's heap table of keys ({@code log.cleaner.dedupe.buffer.size}; Kafka's default 128 MiB). */
    static final long DEDUPE_BUFFER_BYTES = 16L << 20;

    /**
     * One broker of a cluster: its node id, whether it is also the (single) controller, its ports
     * (0: a free one, remembered across restarts), the port clients are told to use (0: the broker
     * port; the bench puts a latency-injecting proxy there), the controller voters (null: itself),
     * the cluster id (null: a new one, remembered), the replication of Kafka's internal topics, and
     * the address it listens on and advertises (the loopback address, or a network namespace's own).
     */
    public record Spec(int nodeId, boolean controller, int port, int controllerPort, int advertisedPort, String voters,
                       String clusterId, int internalReplication, String host) {

        public Spec {
            host = host == null || host.isBlank() ? "127.0.0.1" : host;
        }

        public static Spec standalone() {
            return new Spec(1, true, 0, 0, 0, null, null, 1, null);
        }
    }

    private final Path dir;
    private final Spec spec;
    private KafkaRaftServer server;
    private String bootstrapServers;

    public EmbeddedKafka(Path dir) {
        this(dir, Spec.standalone());
    }

    public EmbeddedKafka(Path dir, Spec spec) {
        this.dir = dir;
        this.spec = spec;
    }

    public synchronized EmbeddedKafka start() throws IOException {
        Files.createDirectories(dir);
        Path stateFile = dir.resolve("quire-embedded.properties");
        Properties state = new Properties();
        if (Files.exists(stateFile)) {
            try (Reader r = Files.newBufferedReader(stateFile)) {
                state.load(r);
            }
        } else {
            state.setProperty("cluster.id", spec.clusterId() != null ? spec.clusterId() : Uuid.randomUuid().toString());
            state.setProperty("broker.port", Integer.toString(spec.port() > 0 ? spec.port() : freePort()));
            state.setProperty("controller.port",
                    Integer.toString(spec.controllerPort() > 0 ? spec.controllerPort() : freePort()));
        }
        int brokerPort = Integer.parseInt(state.getProperty("broker.port"));
        int controllerPort = Integer.parseInt(state.getProperty("controller.port"));
        Path logDir = dir.resolve("log");
        int advertised = spec.advertisedPort() > 0 ? spec.advertisedPort() : brokerPort;
        String voters = spec.voters() != null ? spec.voters() : spec.nodeId() + "@" + spec.host() + ":" + controllerPort;
        Properties props = brokerProperties(logDir, brokerPort, controllerPort, advertised, voters);
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            format(props, state.getProperty("cluster.id"));
            try (Writer w = Files.newBufferedWriter(stateFile)) {
                state.store(w, "Quire embedded broker: keep, the broker's log depends on it");
            }
        }
        long t0 = System.nanoTime();
        server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
        server.startup();
        bootstrapServers = spec.host() + ":" + advertised;
        LOG.info("embedded Kafka broker {} up at {} in {} ms (data {})", spec.nodeId(), bootstrapServers,
                (System.nanoTime() - t0) / 1_000_000, logDir);
        return this;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    private Properties brokerProperties(Path logDir, int brokerPort, int controllerPort, int advertisedPort,
                                        String voters) {
        Properties p = new Properties();
        p.setProperty("process.roles", spec.controller() ? "broker,controller" : "broker");
        p.setProperty("node.id", Integer.toString(spec.nodeId()));
        p.setProperty("controller.quorum.voters", voters);
        p.setProperty("listeners", "PLAINTEXT://" + spec.host() + ":" + brokerPort
                + (spec.controller() ? ",CONTROLLER://" + spec.host() + ":" + controllerPort : ""));
        p.setProperty("advertised.listeners", "PLAINTEXT://" + spec.host() + ":" + advertisedPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", logDir.toString());
        p.setProperty("num.partitions", "1");
        String replication = Integer.toString(spec.internalReplication());
        String minIsr = Integer.toString(Math.min(2, spec.internalReplication()));
        p.setProperty("offsets.topic.replication.factor", replication);
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.replication.factor", replication);
        p.setProperty("transaction.state.log.min.isr", minIsr);
        p.setProperty("share.coordinator.state.topic.replication.factor", replication);
        p.setProperty("share.coordinator.state.topic.min.isr", minIsr);
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("unclean.leader.election.enable", "false");
        // The log cleaner's table of keys is allocated on the heap when the broker starts, 128 MiB by
        // default: 40 % of a default dev node's 320 MiB heap, for compacted topics that here hold
        // only the consumer groups' offsets. 16 MiB cleans ~600,000 keys a pass.
        p.setProperty("log.cleaner.dedupe.buffer.size", Long.toString(DEDUPE_BUFFER_BYTES));
        return p;
    }

    private static void format(Properties props, String clusterId) throws IOException {
        Path config = Files.createTempFile("quire-kraft", ".properties");
        try {
            try (Writer w = Files.newBufferedWriter(config)) {
                props.store(w, null);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int rc = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", config.toString(),
                "--ignore-formatted"}, new PrintStream(out, true, StandardCharsets.UTF_8));
            if (rc != 0) {
                throw new IOException("formatting the embedded broker's log failed: " + out.toString(StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(config);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }
}
