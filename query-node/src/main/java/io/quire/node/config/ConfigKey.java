package io.quire.node.config;

/**
 * Every setting of a node, declared once: flag, environment variable, default and meaning. The
 * README's configuration table is printed from here ({@code java -jar quire.jar config}).
 */
public enum ConfigKey {
    PORT("port", "8081", null, "HTTP port of the Confluent API, health and metrics"),
    HOST("host", "0.0.0.0", null, "Address the HTTP server binds"),
    DATA_DIR("data-dir", "./quire-data", null,
            "Folder for the node's RocksDB view (and, in dev mode, the embedded broker's log)"),
    BOOTSTRAP_SERVERS("bootstrap-servers", "", null, "Kafka bootstrap servers (serve mode; required there)"),
    NODE_ID("node-id", "", null, "This node's name in the journal (default: node-<port>)"),
    JOURNAL_TOPIC("journal-topic", "_quire_journal", null, "The journal topic"),
    JOURNAL_REPLICATION("journal-replication", "3", "1", "Replication factor used when creating the journal topic"),
    JOURNAL_MIN_ISR("journal-min-isr", "2", "1", "min.insync.replicas of the journal topic when created"),
    ID_BLOCK_SIZE("id-block-size", "1000", null, "Ids leased per block by this node"),
    JOURNAL_LINGER_MS("journal-linger-ms", "1", null,
            "How long the node's journal producer waits to fill a batch. 5 (Kafka's producer default since 4.0) took 10-19 % less CPU per registration of new subjects at 200 writers, but slowed registrations that queue behind their subject's previous one (docs/capacity-planning.md)"),
    WRITE_TIMEOUT_MS("write-timeout-ms", "10000", null,
            "How long a write waits for the journal to take and apply it before 50002"),
    READ_WAIT_TIMEOUT_MS("read-wait-timeout-ms", "5000", null,
            "How long a read carrying X-Quire-Min-Offset waits for that offset before 50002"),
    MAX_BODY_BYTES("max-body-bytes", "4194304", null, "Largest request body accepted"),
    SHUTDOWN_DELAY_MS("shutdown-delay-ms", "5000", "0",
            "On SIGTERM the node reports not-ready at once and keeps serving this long, every answer carrying `Connection: close`, so that load balancers stop sending it requests before it stops listening (the endpoint-removal window)"),
    SHUTDOWN_TIMEOUT_MS("shutdown-timeout-ms", "20000", null,
            "After that window: how long the requests in flight (writes waiting for their outcome included) may take before the node closes anyway"),
    HTTP_INSTANCES("http-instances", "0", null, "HTTP server instances (event loops); 0 means one per core"),
    WORKER_THREADS("worker-threads", "0", null, "Threads for parsing and compatibility checks; 0 means one per core"),
    SKIP_CORRUPT_RECORDS("skip-corrupt-records", "false", null,
            "Apply unreadable journal records as counted rejections instead of stopping the node"),
    BOOTSTRAP_SNAPSHOT("bootstrap-snapshot", "", null,
            "A snapshot folder (`quire.jar snapshot`), or a running node's URL to fetch one from, to start a fresh node's view from; only the journal after it is replayed"),
    BOOTSTRAP_SNAPSHOT_AUTHORIZATION_FILE("bootstrap-snapshot-authorization-file", "", null,
            "A file holding the `Authorization` header (an admin's `Basic …` or `Bearer …`) sent when fetching the bootstrap snapshot from a node"),
    BOOTSTRAP_SNAPSHOT_REQUIRED("bootstrap-snapshot-required", "true", null,
            "Whether a bootstrap snapshot that cannot be fetched from a node's URL stops the start (true) or the node replays the journal from the start instead (false: the first pod of a new cluster has no peer yet)"),
    SNAPSHOT_EVERY_RECORDS("snapshot-every-records", "0", null,
            "Take a snapshot of the view (under the data dir) each time this many records were applied since the last; 0: only on request"),
    SNAPSHOT_RETAIN("snapshot-retain", "3", null, "Automatic snapshots kept (the newest); older ones are deleted"),
    FOLLOW_CONFLUENT("follow-confluent", "", null,
            "Bootstrap servers of the Kafka cluster of a running Confluent Schema Registry: this node copies its `_schemas` topic into the journal, ids kept, and the registry is read-only until `quire.jar cutover` (docs/migrate-from-confluent.md)"),
    FOLLOW_CONFLUENT_TOPIC("follow-confluent-topic", "_schemas", null, "The followed registry's topic (its `kafkastore.topic`)"),
    FOLLOW_CONFLUENT_CONFIG("follow-confluent-config", "", null,
            "A properties file of Kafka client settings (TLS, SASL) for the followed registry's cluster"),
    FOLLOW_SKIP_UNREADABLE("follow-skip-unreadable", "false", null,
            "Skip (and count) a followed record Quire cannot read or apply instead of stopping the follower there"),
    REGION("region", "main", null,
            "This node's region name. A region whose name the journal's last promotion names is the primary and writes; docs/regions.md"),
    JOURNAL_FOLLOW("journal-follow", "", null,
            "The primary this region follows (its URL or name, named in refusals): the journal topic is a mirror of the primary's (MirrorMaker 2), every read is served from it, and every write is refused until `quire.jar promote` makes this region the primary"),
    EXPORTER_LEASE_MS("exporter-lease-ms", "10000", null,
            "How long a node's lease to run an exporter lasts without renewal; another node takes the exporter over once it expires"),
    KUBERNETES_SCHEMAS("kubernetes-schemas", "false", null,
            "Reconcile `Schema` resources (schemas.quire.io/v1) into the registry; one node at a time holds the reconciler's lease (docs/kubernetes-schemas.md)"),
    KUBERNETES_API_URL("kubernetes-api-url", "", null,
            "The Kubernetes API server the reconciler watches; empty: the pod's service account, else the kubeconfig"),
    KUBERNETES_NAMESPACE("kubernetes-namespace", "", null,
            "The namespace whose `Schema` resources are reconciled; empty: the pod's own; `*`: every namespace (needs a ClusterRole)"),
    KUBERNETES_SCHEMAS_LEASE_MS("kubernetes-schemas-lease-ms", "15000", null,
            "How long the reconciler's lease lasts without renewal; another node takes the reconciling over once it expires"),
    KUBERNETES_SCHEMAS_RESYNC_MS("kubernetes-schemas-resync-ms", "60000", null,
            "How often every `Schema` resource is planned again, so that a version registered outside it shows in its status"),
    KUBERNETES_SCHEMAS_REGISTRY_URL("kubernetes-schemas-registry-url", "", null,
            "The URL the reconciler reaches the registry at; empty: this node on the loopback address"),
    KUBERNETES_SCHEMAS_AUTHORIZATION_FILE("kubernetes-schemas-authorization-file", "", null,
            "A file holding the `Authorization` header the reconciler sends when authentication is on (a writer, or an admin to set compatibility and delete for good)"),
    PEER_NODES("peer-nodes", "", null,
            "The other nodes' URLs, comma-separated, for the console's cluster page (`/admin/cluster` asks each for its position)"),
    MEMORY_MIB("memory-mib", "0", null,
            "The node's memory budget: a node started without -Xmx starts again with its heap set from it (the budget less the view's memory, ~288 MiB for the JVM's own, ~96 MiB of native slack and ~64 MiB for the JVM that relaunched it). 0: the container's limit, else 1024 (docs/operations.md)"),
    VIEW_MEMORY_MIB("view-memory-mib", "256", null,
            "Memory of the view's RocksDB: its block cache, which also holds the index, filters and (half of it at most) the memtables"),
    NATIVE_TRIM_INTERVAL_MS("native-trim-interval-ms", "5000", null,
            "How often the node asks the C allocator to return freed memory to the system (RocksDB's churn otherwise keeps it resident); 0: never. Skipped when the JVM trims by itself (-XX:TrimNativeHeapInterval)"),
    VIEW_CATCH_UP_MIN_RECORDS("view-catch-up-min-records", "10000", null,
            "At start, a view this many records or more behind the journal catches up before Kafka Streams starts, fetching and decoding on a thread of its own; fewer are left to Streams"),
    VIEW_COMPRESSION("view-compression", "none", null,
            "Compression of the view's files: none (fastest apply, ~3x the disk), lz4, snappy or zstd"),
    MAX_SCHEMA_BYTES("max-schema-bytes", "1048576", null, "Largest schema text accepted (42209 above)"),
    MAX_REFERENCES("max-references", "64", null, "Most references one schema may declare"),
    MAX_REFERENCE_DEPTH("max-reference-depth", "16", null, "Deepest chain of references resolved"),
    MAX_PAGE_SIZE("max-page-size", "10000", null, "Largest `limit` a list request may ask for"),
    PROTOBUF_STRICT_RESERVED("protobuf-strict-reserved", "false", null,
            "Protobuf checks refuse a new field that takes a number the earlier version reserved (stricter than Confluent)"),
    INCOMPATIBLE_ERROR_CODE("incompatible-error-code", "409", null,
            "`error_code` of an incompatible schema (HTTP 409 either way): 409 as Confluent 7.x, or 40901 as Confluent 8.x"),
    AUTH_USERS_FILE("auth-users-file", "", null,
            "Enables HTTP Basic: lines `name:bcrypt-hash:role[:subject-prefix,...]` (see docs/security.md)"),
    AUTH_JWT_PUBLIC_KEY_FILE("auth-jwt-public-key-file", "", null,
            "Enables bearer tokens signed with this PEM public key (RS256)"),
    AUTH_JWT_HMAC_SECRET_FILE("auth-jwt-hmac-secret-file", "", null,
            "Enables bearer tokens signed with the HMAC secret in this file (HS256)"),
    AUTH_JWT_ISSUER("auth-jwt-issuer", "", null, "Required `iss` of bearer tokens (empty: not checked)"),
    AUTH_JWT_AUDIENCE("auth-jwt-audience", "", null, "Required `aud` of bearer tokens (empty: not checked)"),
    AUTH_JWT_ROLES_CLAIM("auth-jwt-roles-claim", "roles", null,
            "Token claims naming the caller's roles or groups, comma-separated paths (`realm_access.roles`, `resource_access.quire.roles`, `groups`, `scope`); a string value is split on spaces"),
    AUTH_ROLE_MAPPING("auth-role-mapping", "", null,
            "Provider names to Quire roles, `;`-separated: `team-payments=writer:payments-,billing-;platform=admin` (a name that is a Quire role grants it as is)"),
    AUTH_JWT_PRINCIPAL_CLAIM("auth-jwt-principal-claim", "sub", null,
            "Token claim naming the caller in the audit trail (`preferred_username`, `email`, `sub`; `sub` when absent)"),
    AUTH_OIDC_ISSUER("auth-oidc-issuer", "", null,
            "Enables bearer tokens of this OpenID Connect provider: its discovery document gives the key set (JWKS), kept in memory and refreshed; `iss` must be this URL"),
    AUTH_OIDC_JWKS_REFRESH_S("auth-oidc-jwks-refresh-s", "300", null,
            "How long the provider's key set is kept before it is fetched again"),
    AUTH_OIDC_MIN_FETCH_INTERVAL_S("auth-oidc-min-fetch-interval-s", "30", null,
            "At most one key-set fetch per this interval for a token whose `kid` is unknown (forged `kid`s cannot hammer the provider)"),
    AUTH_OIDC_CONSOLE_CLIENT_ID("auth-oidc-console-client-id", "", null,
            "Public client (authorization code with PKCE) the web console signs in with; empty: no provider sign-in in the console"),
    AUTH_CLOCK_SKEW_S("auth-clock-skew-s", "30", null, "Clock skew allowed when checking a token's `exp` and `nbf`"),
    AUTH_JWT_SUBJECTS_CLAIM("auth-jwt-subjects-claim", "subjects", null,
            "Token claim listing the subject prefixes the token is limited to (absent: all)"),
    AUTH_METRICS("auth-metrics", "false", null, "Require the admin role for /metrics when authentication is on"),
    KMS_LOCAL_SECRET_FILE("kms-local-secret-file", "", null,
            "Enables shared KEKs of kmsType `local-kms`: the node makes and unwraps their DEKs with the secret in this file"),
    TLS_CERT_FILE("tls-cert-file", "", null, "PEM certificate chain: serve HTTPS instead of HTTP"),
    TLS_KEY_FILE("tls-key-file", "", null, "PEM private key of the certificate");

    public final String flag;
    public final String env;
    public final String serveDefault;
    public final String devDefault;
    public final String doc;

    ConfigKey(String flag, String serveDefault, String devDefault, String doc) {
        this.flag = flag;
        this.env = "QUIRE_" + name();
        this.serveDefault = serveDefault;
        this.devDefault = devDefault == null ? serveDefault : devDefault;
        this.doc = doc;
    }

    /** The table for the README. */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder("| flag | environment | default (serve / dev) | meaning |\n|---|---|---|---|\n");
        for (ConfigKey k : values()) {
            String dflt = k.serveDefault.equals(k.devDefault) ? k.serveDefault : k.serveDefault + " / " + k.devDefault;
            sb.append("| `--").append(k.flag).append("` | `").append(k.env).append("` | ")
                    .append(dflt.isEmpty() ? "—" : "`" + dflt + "`").append(" | ").append(k.doc).append(" |\n");
        }
        sb.append("| `--kafka key=value` | `QUIRE_KAFKA_<KEY>` (dots as `_`) | — | "
                + "Passed to every Kafka client (security settings, for example) |\n");
        return sb.toString();
    }
}
