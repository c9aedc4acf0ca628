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
    WRITE_TIMEOUT_MS("write-timeout-ms", "10000", null,
            "How long a write waits for the journal to take and apply it before 50002"),
    READ_WAIT_TIMEOUT_MS("read-wait-timeout-ms", "5000", null,
            "How long a read carrying X-Quire-Min-Offset waits for that offset before 50002"),
    MAX_BODY_BYTES("max-body-bytes", "4194304", null, "Largest request body accepted"),
    HTTP_INSTANCES("http-instances", "0", null, "HTTP server instances (event loops); 0 means one per core"),
    WORKER_THREADS("worker-threads", "0", null, "Threads for parsing and compatibility checks; 0 means one per core"),
    SKIP_CORRUPT_RECORDS("skip-corrupt-records", "false", null,
            "Apply unreadable journal records as counted rejections instead of stopping the node");

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
