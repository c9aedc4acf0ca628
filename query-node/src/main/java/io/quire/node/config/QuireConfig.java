package io.quire.node.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A node's configuration, built once from flags, then {@code QUIRE_*} environment variables, then
 * defaults; validated here. Nothing else reads the environment.
 */
public record QuireConfig(boolean dev, int port, String host, Path dataDir, String bootstrapServers, String nodeId,
                          String journalTopic, short journalReplication, int journalMinIsr, int idBlockSize,
                          int journalLingerMs, long writeTimeoutMs, long readWaitTimeoutMs, long maxBodyBytes, int httpInstances,
                          int workerThreads, boolean skipCorruptRecords, String bootstrapSnapshot, Limits limits,
                          boolean protobufStrictReserved, int incompatibleErrorCode, Security security,
                          Map<String, String> kafka, long snapshotEveryRecords, int snapshotRetain, View view,
                          List<String> peerNodes, Shutdown shutdown, Follow follow, Regions regions,
                          Kubernetes kubernetes) {

    /**
     * The {@code Schema} resources' reconciler ({@code schemas} false: off): the API server (empty:
     * in-cluster or kubeconfig), the namespace (empty: the pod's; {@code *}: all), its lease and
     * resync period, the registry URL it calls (empty: this node) and the file of its
     * Authorization header (empty: none).
     */
    public record Kubernetes(boolean schemas, String apiUrl, String namespace, long leaseMs, long resyncMs,
                             String registryUrl, String authorizationFile) {
    }

    /**
     * This node's region, the primary it follows when its journal is a mirror ({@code journalFollow}
     * empty: it is not a follower region), and the exporter lease.
     */
    public record Regions(String region, String journalFollow, long exporterLeaseMs) {
        public boolean following() {
            return !journalFollow.isEmpty();
        }
    }

    /**
     * A running Confluent Schema Registry to follow ({@code bootstrapServers} empty: none): its Kafka,
     * its topic, the source's client settings file, and whether unreadable records are skipped.
     */
    public record Follow(String bootstrapServers, String topic, String configFile, boolean skipUnreadable) {
        public boolean on() {
            return !bootstrapServers.isEmpty();
        }
    }

    /** How a node stops on SIGTERM: serving for {@code delayMs} while not ready, then at most {@code timeoutMs} for requests in flight. */
    public record Shutdown(long delayMs, long timeoutMs) {
    }

    /**
     * The view store's memory budget and file compression, how to fetch a bootstrap snapshot, how
     * often the C allocator gives freed memory back (0: never), and the node's whole memory budget
     * ({@code --memory-mib}; 0: the container's limit, else the default).
     */
    public record View(int memoryMib, String compression, String snapshotAuthorizationFile, long catchUpMinRecords,
                       long nativeTrimIntervalMs, boolean snapshotRequired, int nodeMemoryMib) {

        public static final List<String> COMPRESSIONS = List.of("none", "lz4", "snappy", "zstd");

        /** The node's memory budget as this machine gives it, to a node relaunched ({@code relaunched}) or not. */
        public MemoryBudget budget(boolean relaunched) {
            return MemoryBudget.of(nodeMemoryMib, memoryMib, Path.of("/sys/fs/cgroup"), relaunched);
        }
    }

    /**
     * Bearer tokens from an OpenID Connect provider ({@code oidcIssuer} empty: none), and how any
     * token's claims become a caller: the principal's claim, provider names mapped to roles, the
     * clock skew allowed.
     */
    public record Tokens(String oidcIssuer, long jwksRefreshS, long minFetchIntervalS, String consoleClientId,
                         String principalClaim, String roleMapping, long clockSkewS) {

        public static final Tokens NONE = new Tokens("", 300, 30, "", "sub", "", 30);
    }

    /** Bounds on what one request may ask for; all refused at the edge. */
    public record Limits(int maxSchemaBytes, int maxReferences, int maxReferenceDepth, int maxPageSize) {
    }

    /** Authentication and TLS; all empty means an open HTTP listener (the dev default). */
    public record Security(String usersFile, String jwtPublicKeyFile, String jwtHmacSecretFile, String jwtIssuer,
                           String jwtAudience, String jwtRolesClaim, String jwtSubjectsClaim, boolean authMetrics,
                           String tlsCertFile, String tlsKeyFile, String kmsLocalSecretFile, Tokens tokens) {

        public Security(String usersFile, String jwtPublicKeyFile, String jwtHmacSecretFile, String jwtIssuer,
                        String jwtAudience, String jwtRolesClaim, String jwtSubjectsClaim, boolean authMetrics,
                        String tlsCertFile, String tlsKeyFile, String kmsLocalSecretFile) {
            this(usersFile, jwtPublicKeyFile, jwtHmacSecretFile, jwtIssuer, jwtAudience, jwtRolesClaim,
                    jwtSubjectsClaim, authMetrics, tlsCertFile, tlsKeyFile, kmsLocalSecretFile, Tokens.NONE);
        }

        public boolean authEnabled() {
            return !usersFile.isEmpty() || !jwtPublicKeyFile.isEmpty() || !jwtHmacSecretFile.isEmpty()
                    || !tokens.oidcIssuer().isEmpty();
        }

        public boolean tls() {
            return !tlsCertFile.isEmpty();
        }
    }

    /** A flag that must say {@code true} or {@code false}. */
    private static boolean bool(Map<ConfigKey, String> values, ConfigKey key) {
        String v = values.get(key).trim().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("--" + key.flag + " must be true or false, not '" + values.get(key) + "'");
        }
        return v.equals("true");
    }

    public static QuireConfig from(boolean dev, String[] args, Map<String, String> env) {
        Map<ConfigKey, String> values = new EnumMap<>(ConfigKey.class);
        Map<String, String> kafka = new TreeMap<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("QUIRE_KAFKA_")) {
                kafka.put(e.getKey().substring("QUIRE_KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.'),
                        e.getValue());
            }
        }
        for (ConfigKey k : ConfigKey.values()) {
            values.put(k, env.getOrDefault(k.env, dev ? k.devDefault : k.serveDefault));
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("flag --" + name + " needs a value");
            }
            if (name.equals("kafka")) {
                int kv = value.indexOf('=');
                if (kv <= 0) {
                    throw new IllegalArgumentException("--kafka takes key=value, got '" + value + "'");
                }
                kafka.put(value.substring(0, kv), value.substring(kv + 1));
                continue;
            }
            values.put(flag(name), value);
        }
        int port = integer(values, ConfigKey.PORT, 0, 65535);
        String nodeId = values.get(ConfigKey.NODE_ID).isBlank() ? "node-" + port : values.get(ConfigKey.NODE_ID);
        String bootstrap = values.get(ConfigKey.BOOTSTRAP_SERVERS);
        if (!dev && bootstrap.isBlank()) {
            throw new IllegalArgumentException("serve needs --bootstrap-servers (or QUIRE_BOOTSTRAP_SERVERS)");
        }
        return new QuireConfig(dev, port, values.get(ConfigKey.HOST), Path.of(values.get(ConfigKey.DATA_DIR)),
                bootstrap, nodeId, values.get(ConfigKey.JOURNAL_TOPIC),
                (short) integer(values, ConfigKey.JOURNAL_REPLICATION, 1, 32),
                integer(values, ConfigKey.JOURNAL_MIN_ISR, 1, 32),
                integer(values, ConfigKey.ID_BLOCK_SIZE, 1, 1_000_000),
                integer(values, ConfigKey.JOURNAL_LINGER_MS, 0, 1_000),
                integer(values, ConfigKey.WRITE_TIMEOUT_MS, 100, 600_000),
                integer(values, ConfigKey.READ_WAIT_TIMEOUT_MS, 0, 600_000),
                integer(values, ConfigKey.MAX_BODY_BYTES, 1024, 1 << 30),
                integer(values, ConfigKey.HTTP_INSTANCES, 0, 256),
                integer(values, ConfigKey.WORKER_THREADS, 0, 256),
                Boolean.parseBoolean(values.get(ConfigKey.SKIP_CORRUPT_RECORDS)),
                values.get(ConfigKey.BOOTSTRAP_SNAPSHOT).trim(),
                new Limits(integer(values, ConfigKey.MAX_SCHEMA_BYTES, 16, 1 << 30),
                        integer(values, ConfigKey.MAX_REFERENCES, 0, 100_000),
                        integer(values, ConfigKey.MAX_REFERENCE_DEPTH, 1, 1_000),
                        integer(values, ConfigKey.MAX_PAGE_SIZE, 1, 10_000_000)),
                Boolean.parseBoolean(values.get(ConfigKey.PROTOBUF_STRICT_RESERVED)),
                incompatibleErrorCode(values.get(ConfigKey.INCOMPATIBLE_ERROR_CODE)),
                security(values),
                Map.copyOf(kafka),
                integer(values, ConfigKey.SNAPSHOT_EVERY_RECORDS, 0, Integer.MAX_VALUE),
                integer(values, ConfigKey.SNAPSHOT_RETAIN, 1, 1_000),
                new View(integer(values, ConfigKey.VIEW_MEMORY_MIB, 16, 1 << 20), compression(values),
                        values.get(ConfigKey.BOOTSTRAP_SNAPSHOT_AUTHORIZATION_FILE).trim(),
                        integer(values, ConfigKey.VIEW_CATCH_UP_MIN_RECORDS, 1, Integer.MAX_VALUE),
                        integer(values, ConfigKey.NATIVE_TRIM_INTERVAL_MS, 0, 3_600_000),
                        bool(values, ConfigKey.BOOTSTRAP_SNAPSHOT_REQUIRED),
                        integer(values, ConfigKey.MEMORY_MIB, 0, 1 << 24)),
                peerNodes(values.get(ConfigKey.PEER_NODES)),
                new Shutdown(integer(values, ConfigKey.SHUTDOWN_DELAY_MS, 0, 600_000),
                        integer(values, ConfigKey.SHUTDOWN_TIMEOUT_MS, 0, 3_600_000)),
                new Follow(values.get(ConfigKey.FOLLOW_CONFLUENT).trim(), values.get(ConfigKey.FOLLOW_CONFLUENT_TOPIC).trim(),
                        values.get(ConfigKey.FOLLOW_CONFLUENT_CONFIG).trim(), bool(values, ConfigKey.FOLLOW_SKIP_UNREADABLE)),
                new Regions(values.get(ConfigKey.REGION).trim(), values.get(ConfigKey.JOURNAL_FOLLOW).trim(),
                        integer(values, ConfigKey.EXPORTER_LEASE_MS, 1_000, 3_600_000)),
                new Kubernetes(bool(values, ConfigKey.KUBERNETES_SCHEMAS), values.get(ConfigKey.KUBERNETES_API_URL).trim(),
                        values.get(ConfigKey.KUBERNETES_NAMESPACE).trim(),
                        integer(values, ConfigKey.KUBERNETES_SCHEMAS_LEASE_MS, 1_000, 3_600_000),
                        integer(values, ConfigKey.KUBERNETES_SCHEMAS_RESYNC_MS, 0, 86_400_000),
                        registryUrl(values.get(ConfigKey.KUBERNETES_SCHEMAS_REGISTRY_URL).trim()),
                        values.get(ConfigKey.KUBERNETES_SCHEMAS_AUTHORIZATION_FILE).trim()));
    }

    private static String registryUrl(String url) {
        if (!url.isEmpty() && !url.startsWith("http://") && !url.startsWith("https://")) {
            throw new IllegalArgumentException("--kubernetes-schemas-registry-url takes an http:// or https:// URL, not "
                    + url);
        }
        return url;
    }

    private static List<String> peerNodes(String text) {
        List<String> out = new ArrayList<>();
        for (String s : text.split(",")) {
            String url = s.strip();
            if (url.isEmpty()) {
                continue;
            }
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new IllegalArgumentException("--peer-nodes takes http:// or https:// URLs, not " + url);
            }
            out.add(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
        }
        return List.copyOf(out);
    }

    private static String compression(Map<ConfigKey, String> values) {
        String c = values.get(ConfigKey.VIEW_COMPRESSION).trim().toLowerCase(Locale.ROOT);
        if (!View.COMPRESSIONS.contains(c)) {
            throw new IllegalArgumentException("--view-compression is one of " + View.COMPRESSIONS + ", not " + c);
        }
        return c;
    }

    private static int incompatibleErrorCode(String text) {
        return switch (text.trim()) {
            case "409" -> 409;
            case "40901" -> 40901;
            default -> throw new IllegalArgumentException("--incompatible-error-code is 409 or 40901, not " + text);
        };
    }

    private static Security security(Map<ConfigKey, String> v) {
        Security s = new Security(v.get(ConfigKey.AUTH_USERS_FILE), v.get(ConfigKey.AUTH_JWT_PUBLIC_KEY_FILE),
                v.get(ConfigKey.AUTH_JWT_HMAC_SECRET_FILE), v.get(ConfigKey.AUTH_JWT_ISSUER),
                v.get(ConfigKey.AUTH_JWT_AUDIENCE), v.get(ConfigKey.AUTH_JWT_ROLES_CLAIM),
                v.get(ConfigKey.AUTH_JWT_SUBJECTS_CLAIM), Boolean.parseBoolean(v.get(ConfigKey.AUTH_METRICS)),
                v.get(ConfigKey.TLS_CERT_FILE), v.get(ConfigKey.TLS_KEY_FILE), v.get(ConfigKey.KMS_LOCAL_SECRET_FILE),
                new Tokens(v.get(ConfigKey.AUTH_OIDC_ISSUER).trim().replaceAll("/+$", ""),
                        integer(v, ConfigKey.AUTH_OIDC_JWKS_REFRESH_S, 1, 86_400),
                        integer(v, ConfigKey.AUTH_OIDC_MIN_FETCH_INTERVAL_S, 0, 3_600),
                        v.get(ConfigKey.AUTH_OIDC_CONSOLE_CLIENT_ID).trim(),
                        v.get(ConfigKey.AUTH_JWT_PRINCIPAL_CLAIM).trim(),
                        v.get(ConfigKey.AUTH_ROLE_MAPPING).trim(),
                        integer(v, ConfigKey.AUTH_CLOCK_SKEW_S, 0, 3_600)));
        if (!s.tokens().oidcIssuer().isEmpty() && !s.tokens().oidcIssuer().matches("https?://.+")) {
            throw new IllegalArgumentException("--auth-oidc-issuer must be an http(s) URL");
        }
        if (s.tlsCertFile().isEmpty() != s.tlsKeyFile().isEmpty()) {
            throw new IllegalArgumentException("--tls-cert-file and --tls-key-file go together");
        }
        if (!s.jwtPublicKeyFile().isEmpty() && !s.jwtHmacSecretFile().isEmpty()) {
            throw new IllegalArgumentException("choose one of --auth-jwt-public-key-file and --auth-jwt-hmac-secret-file");
        }
        return s;
    }

    /** The same node with the bootstrap servers of an embedded broker. */
    public QuireConfig withBootstrapServers(String servers) {
        return new QuireConfig(dev, port, host, dataDir, servers, nodeId, journalTopic, journalReplication,
                journalMinIsr, idBlockSize, journalLingerMs, writeTimeoutMs, readWaitTimeoutMs, maxBodyBytes, httpInstances,
                workerThreads, skipCorruptRecords, bootstrapSnapshot, limits, protobufStrictReserved, incompatibleErrorCode,
                security, kafka, snapshotEveryRecords, snapshotRetain, view, peerNodes, shutdown, follow, regions,
                kubernetes);
    }

    /** Properties for any Kafka client of this node. */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.putAll(kafka);
        return p;
    }

    public int effectiveHttpInstances() {
        return httpInstances > 0 ? httpInstances : Runtime.getRuntime().availableProcessors();
    }

    public int effectiveWorkerThreads() {
        return workerThreads > 0 ? workerThreads : Runtime.getRuntime().availableProcessors();
    }

    /** For the start-up log: every setting, Kafka values whose key looks secret redacted. */
    public String describe() {
        Map<String, String> shown = new HashMap<>();
        kafka.forEach((k, v) -> shown.put(k, k.matches(".*(password|secret|jaas|token|key).*") ? "***" : v));
        return "mode=" + (dev ? "dev" : "serve") + " port=" + port + " host=" + host + " data-dir=" + dataDir
                + " bootstrap-servers=" + bootstrapServers + " node-id=" + nodeId + " journal-topic=" + journalTopic
                + " journal-replication=" + journalReplication + " journal-min-isr=" + journalMinIsr
                + " id-block-size=" + idBlockSize + " journal-linger-ms=" + journalLingerMs + " write-timeout-ms=" + writeTimeoutMs
                + " read-wait-timeout-ms=" + readWaitTimeoutMs + " max-body-bytes=" + maxBodyBytes
                + " http-instances=" + effectiveHttpInstances() + " worker-threads=" + effectiveWorkerThreads()
                + " skip-corrupt-records=" + skipCorruptRecords
                + (bootstrapSnapshot.isEmpty() ? "" : " bootstrap-snapshot=" + bootstrapSnapshot) + " " + limits + " auth="
                + (security.authEnabled() ? "on" : "off") + " tls=" + (security.tls() ? "on" : "off")
                + " shutdown-delay-ms=" + shutdown.delayMs() + " shutdown-timeout-ms=" + shutdown.timeoutMs()
                + " kafka=" + new TreeMap<>(shown);
    }

    private static ConfigKey flag(String name) {
        for (ConfigKey k : ConfigKey.values()) {
            if (k.flag.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown flag --" + name);
    }

    private static int integer(Map<ConfigKey, String> values, ConfigKey key, int min, int max) {
        try {
            int v = Integer.parseInt(values.get(key).trim());
            if (v < min || v > max) {
                throw new IllegalArgumentException("--" + key.flag + " must be between " + min + " and " + max);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key.flag + " must be a number, got '" + values.get(key) + "'");
        }
    }
}
