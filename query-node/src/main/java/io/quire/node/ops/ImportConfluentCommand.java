package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code quire.jar import-confluent}: reads a Confluent Schema Registry {@code _schemas} topic (JSON
 * keys and values, as Confluent writes them), folds it into the registry state it describes (last
 * record per key wins, tombstones remove, DELETE_SUBJECT marks versions deleted), and replays that
 * state into a Quire node over its API in IMPORT mode: every schema with its id and version, soft
 * deletes, subject and global compatibility levels and modes. Running it again is harmless: what is
 * already there is answered as such.
 */
public final class ImportConfluentCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ImportConfluentCommand() {
    }

    /**
     * One subject version as the source registry holds it, its data contract included (null parts:
     * none); {@code globalId} and {@code deprecated} when the source is an Apicurio registry.
     */
    record SourceSchema(String subject, int version, long id, String schemaType, String schema, JsonNode references,
                        JsonNode metadata, JsonNode ruleSet, boolean deleted, Long globalId, boolean deprecated) {

        SourceSchema(String subject, int version, long id, String schemaType, String schema, JsonNode references,
                     JsonNode metadata, JsonNode ruleSet, boolean deleted) {
            this(subject, version, id, schemaType, schema, references, metadata, ruleSet, deleted, null, false);
        }

        SourceSchema softDeleted() {
            return new SourceSchema(subject, version, id, schemaType, schema, references, metadata, ruleSet, true,
                    globalId, deprecated);
        }
    }

    /** The source registry's state, folded from its topic. */
    static final class SourceState {
        final Map<String, SourceSchema> schemas = new TreeMap<>();
        final Map<String, String> levels = new TreeMap<>(); // "" is the global level
        final Map<String, String> modes = new TreeMap<>();
        /** The live associations, by their record key (resource name, namespace, type, role, subject). */
        final Map<String, JsonNode> associations = new TreeMap<>();
        long records;
        long skippedUnknown;

        static String key(String subject, int version) {
            return subject + '\u0000' + version;
        }

        void apply(JsonNode key, JsonNode value) {
            records++;
            String type = key.path("keytype").asText("");
            String raw = key.path("subject").isTextual() ? key.get("subject").asText() : null;
            // A subject in a named context keeps its qualified name (and its ids, which are per context);
            // ":.:x" is the default context spelled out.
            String subject = raw != null && raw.startsWith(":.:") ? raw.substring(3) : raw;
            switch (type) {
                case "SCHEMA" -> {
                    String k = key(subject, key.path("version").asInt());
                    if (value == null) {
                        schemas.remove(k);
                    } else {
                        JsonNode refs = value.path("references");
                        schemas.put(k, new SourceSchema(subject, value.path("version").asInt(), value.path("id").asLong(),
                                value.path("schemaType").asText("AVRO"), value.path("schema").asText(),
                                refs.isArray() ? refs : null, objectOrNull(value.get("metadata")),
                                objectOrNull(value.get("ruleSet")), value.path("deleted").asBoolean(false)));
                    }
                }
                case "CONFIG" -> put(levels, subject, value == null ? null : value.path("compatibilityLevel")
                        .asText(value.path("compatibility").asText(null)));
                case "MODE" -> put(modes, subject, value == null ? null : value.path("mode").asText(null));
                case "DELETE_SUBJECT" -> {
                    int upTo = value == null ? Integer.MAX_VALUE : value.path("version").asInt(Integer.MAX_VALUE);
                    for (Map.Entry<String, SourceSchema> e : schemas.entrySet()) {
                        SourceSchema s = e.getValue();
                        if (s.subject().equals(subject) && s.version() <= upTo) {
                            e.setValue(s.softDeleted());
                        }
                    }
                }
                case "CLEAR_SUBJECT" -> {
                    int upTo = value == null ? Integer.MAX_VALUE : value.path("version").asInt(Integer.MAX_VALUE);
                    schemas.values().removeIf(s -> s.subject().equals(subject) && s.version() <= upTo && s.deleted());
                }
                case "ASSOC" -> {
                    if (value == null) {
                        associations.remove(key.toString());
                    } else {
                        associations.put(key.toString(), value);
                    }
                }
                case "NOOP", "CONTEXT" -> { } // a context comes into being with its first schema
                default -> skippedUnknown++;
            }
        }

        private static void put(Map<String, String> map, String subject, String value) {
            String k = subject == null ? "" : subject;
            if (value == null) {
                map.remove(k);
            } else {
                map.put(k, value);
            }
        }
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of("source-bootstrap-servers", "source-topic", "source-config", "node",
                "user", "force", "concurrency"));
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar import-confluent --source-bootstrap-servers H:P [--source-topic _schemas]
                           [--source-config client.properties] --node http://quire:8081 [--user name:password]
                           [--force true] [--concurrency 8]
                    Reads a Confluent Schema Registry's _schemas topic from the beginning and writes the registry it
                    describes into Quire with ids and versions kept: schemas (IMPORT mode), soft deletes,
                    associations, compatibility levels and modes, in every context (a subject of a named context
                    keeps its qualified name). The target must have no subjects unless --force true (existing ids
                    may then collide and are reported). The global mode is set to IMPORT for the run and then to
                    the source's.
                    Exit 0 when everything was imported (or was already there), 1 otherwise.""");
            return 0;
        }
        Properties source = new Properties();
        if (flags.own.containsKey("source-config")) {
            try (InputStream in = Files.newInputStream(Path.of(flags.own.get("source-config")))) {
                source.load(in);
            }
        }
        source.put("bootstrap.servers", flags.required("source-bootstrap-servers"));
        String topic = flags.own.getOrDefault("source-topic", "_schemas");
        Target target = new Target(flags.required("node").strip(), flags.basicAuthorization(),
                Integer.parseInt(flags.own.getOrDefault("concurrency", "8")));
        boolean force = Boolean.parseBoolean(flags.own.getOrDefault("force", "false"));

        SourceState state = read(source, topic, out);
        out.printf("read %,d records from %s: %,d subject versions, %d compatibility settings, %d modes"
                        + " (%d records of unknown kinds skipped)%n", state.records, topic,
                state.schemas.size(), state.levels.size(), state.modes.size(), state.skippedUnknown);
        return write(state, target, force, out);
    }

    static SourceState read(Properties source, String topic, PrintStream out) throws Exception {
        SourceState state = new SourceState();
        try (KafkaConsumer<byte[], byte[]> consumer = TopicReader.consumer(source)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (partitions == null || partitions.isEmpty()) {
                throw new IllegalArgumentException("topic " + topic + " not found");
            }
            for (PartitionInfo info : partitions) { // Confluent's topic has one partition; read each in order
                TopicPartition tp = new TopicPartition(topic, info.partition());
                Progress progress = new Progress(out, "read " + tp);
                long end = TopicReader.readToEnd(consumer, tp, (r, last) -> {
                    if (r.key() == null) {
                        state.skippedUnknown++;
                        return;
                    }
                    try {
                        state.apply(JSON.readTree(r.key()), r.value() == null ? null : JSON.readTree(r.value()));
                    } catch (IOException e) {
                        state.skippedUnknown++;
                    }
                    progress.update(r.offset() + 1, last, false);
                });
                progress.update(end, end, true);
            }
        }
        return state;
    }

    static int write(SourceState state, Target target, boolean force, PrintStream out) throws Exception {
        String previousMode = target.get("/mode").path("mode").asText("READWRITE");
        HttpResponse<String> switched = target.send("PUT", "/mode" + (force ? "?force=true" : ""),
                "{\"mode\":\"IMPORT\"}");
        if (switched.statusCode() != 200) {
            out.println("cannot switch the target to IMPORT mode: " + switched.body());
            return 1;
        }
        for (String subject : state.modes.keySet()) {
            // A subject's own mode (READONLY from an earlier run, say) would block its import: IMPORT until the end.
            if (!subject.isEmpty()) {
                target.send("PUT", "/mode/" + enc(subject) + "?force=true", "{\"mode\":\"IMPORT\"}");
            }
        }
        List<SourceSchema> todo = new ArrayList<>(state.schemas.values());
        todo.sort(Comparator.comparingLong(SourceSchema::id).thenComparing(SourceSchema::subject)
                .thenComparingInt(SourceSchema::version));
        AtomicLong imported = new AtomicLong();
        Map<SourceSchema, String> failed = new LinkedHashMap<>();
        Progress progress = new Progress(out, "import");
        long total = todo.size();
        // A schema whose references are not imported yet fails; later passes retry what failed.
        for (int pass = 1; pass <= 5 && !todo.isEmpty(); pass++) {
            failed.clear();
            Semaphore inFlight = new Semaphore(target.concurrency);
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (SourceSchema s : todo) {
                inFlight.acquire();
                all.add(target.sendAsync("POST", "/subjects/" + enc(s.subject()) + "/versions", importBody(s))
                        .handle((r, err) -> {
                            inFlight.release();
                            synchronized (failed) {
                                if (err != null) {
                                    failed.put(s, err.toString());
                                } else if (r.statusCode() == 200) {
                                    imported.incrementAndGet();
                                } else {
                                    failed.put(s, r.statusCode() + " " + r.body());
                                }
                            }
                            progress.update(imported.get(), total, false);
                            return null;
                        }));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
            if (failed.size() == todo.size()) {
                break; // no progress in this pass: another pass will not help
            }
            todo = new ArrayList<>(failed.keySet());
        }
        progress.update(imported.get(), total, true);
        int problems = failed.size();
        failed.forEach((s, why) -> out.printf("FAILED %s version %d (id %d): %s%n", s.subject(), s.version(), s.id(),
                why));

        long softDeleted = 0;
        for (SourceSchema s : state.schemas.values()) {
            if (s.deleted() && !failed.containsKey(s)) {
                HttpResponse<String> r = target.send("DELETE", "/subjects/" + enc(s.subject()) + "/versions/"
                        + s.version(), null);
                int code = code(r);
                if (r.statusCode() == 200 || code == 40406) {
                    softDeleted++;
                } else {
                    problems++;
                    out.printf("FAILED soft delete of %s version %d: %s%n", s.subject(), s.version(), r.body());
                }
            }
        }
        int associations = 0;
        for (ObjectNode body : associationBodies(state)) {
            HttpResponse<String> r = target.send("PUT", "/associations", body.toString());
            if (r.statusCode() == 200) {
                associations += body.get("associations").size();
            } else {
                problems++;
                out.printf("FAILED associations of resource %s: %s%n", body.path("resourceId").asText(), r.body());
            }
        }
        for (Map.Entry<String, String> e : state.levels.entrySet()) {
            String path = e.getKey().isEmpty() ? "/config" : "/config/" + enc(e.getKey());
            problems += check(target.send("PUT", path, "{\"compatibility\":\"" + e.getValue() + "\"}"), path, out);
        }
        String finalGlobalMode = state.modes.getOrDefault("", previousMode.equals("IMPORT") ? "READWRITE" : previousMode);
        for (Map.Entry<String, String> e : state.modes.entrySet()) {
            if (!e.getKey().isEmpty()) {
                String path = "/mode/" + enc(e.getKey()) + "?force=true";
                problems += check(target.send("PUT", path, "{\"mode\":\"" + e.getValue() + "\"}"), path, out);
            }
        }
        problems += check(target.send("PUT", "/mode?force=true", "{\"mode\":\"" + finalGlobalMode + "\"}"), "/mode",
                out);
        out.printf("imported %,d of %,d subject versions (%,d soft-deleted), %d associations, %d compatibility"
                        + " settings, %d modes; global mode now %s; %d problem(s) in %.1f s%n", imported.get(), total,
                softDeleted, associations, state.levels.size(), state.modes.size(), finalGlobalMode, problems,
                progress.seconds());
        return problems == 0 ? 0 : 1;
    }

    /**
     * The source's associations as one {@code PUT /associations} body per resource (id and type):
     * the roles, subjects, lifecycles and frozen flags. Their GUIDs are Quire's own (given by the
     * journal), not the source's.
     */
    static List<ObjectNode> associationBodies(SourceState state) {
        Map<String, ObjectNode> byResource = new java.util.TreeMap<>();
        for (JsonNode a : state.associations.values()) {
            String resourceType = a.path("resourceType").asText("topic");
            ObjectNode body = byResource.computeIfAbsent(a.path("resourceId").asText() + '\u0000' + resourceType, k -> {
                ObjectNode b = JSON.createObjectNode();
                b.put("resourceName", a.path("resourceName").asText());
                b.put("resourceNamespace", a.path("resourceNamespace").asText());
                b.put("resourceId", a.path("resourceId").asText());
                b.put("resourceType", resourceType);
                b.putArray("associations");
                return b;
            });
            ObjectNode entry = ((com.fasterxml.jackson.databind.node.ArrayNode) body.get("associations")).addObject();
            entry.put("subject", a.path("subject").asText());
            entry.put("associationType", a.path("associationType").asText("value"));
            entry.put("lifecycle", a.path("lifecycle").asText("STRONG"));
            entry.put("frozen", a.path("frozen").asBoolean(false));
        }
        return new ArrayList<>(byResource.values());
    }

    private static String importBody(SourceSchema s) {
        ObjectNode body = JSON.createObjectNode();
        body.put("schema", s.schema());
        if (!"AVRO".equals(s.schemaType())) {
            body.put("schemaType", s.schemaType());
        }
        if (s.references() != null && !s.references().isEmpty()) {
            body.set("references", s.references());
        }
        if (s.metadata() != null) {
            body.set("metadata", s.metadata());
        }
        if (s.ruleSet() != null) {
            body.set("ruleSet", s.ruleSet());
        }
        body.put("id", s.id());
        body.put("version", s.version());
        if (s.globalId() != null) {
            body.put("globalId", s.globalId());
        }
        if (s.deprecated()) {
            body.put("deprecated", true);
        }
        return body.toString();
    }

    private static JsonNode objectOrNull(JsonNode n) {
        return n != null && n.isObject() ? n : null;
    }

    private static int check(HttpResponse<String> r, String what, PrintStream out) {
        if (r.statusCode() == 200) {
            return 0;
        }
        out.printf("FAILED %s: %d %s%n", what, r.statusCode(), r.body());
        return 1;
    }

    private static int code(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body()).path("error_code").asInt(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    private static String enc(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The Quire node written to, and how many requests may be in flight. */
    static final class Target {
        final NodeClient node;
        final int concurrency;

        Target(String base, String authorization, int concurrency) {
            this.node = new NodeClient(base, authorization, Duration.ofSeconds(60));
            this.concurrency = Math.max(1, concurrency);
        }

        HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
            return node.send(method, path, body);
        }

        CompletableFuture<HttpResponse<String>> sendAsync(String method, String path, String body) {
            return node.sendAsync(method, path, body);
        }

        JsonNode get(String path) throws IOException, InterruptedException {
            return JSON.readTree(send("GET", path, null).body());
        }
    }
}
