package io.quire.node.ops;

import io.quire.client.ConfigRequest;
import io.quire.client.RegistryClient;
import io.quire.client.RegistryException;
import io.quire.journal.model.Association;
import io.quire.node.api.AssociationRequest;
import io.quire.node.confluent.ConfluentLogCodec;
import io.quire.node.ops.SourceState.SourceSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
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
 * {@code quire.jar import-confluent}: reads a Confluent Schema Registry {@code _schemas} topic with
 * {@link ConfluentLogCodec}, folds it into the registry state it describes ({@link SourceState}), and replays that
 * state into a Quire node over its API in IMPORT mode: every schema with its id and version, soft
 * deletes, subject and global compatibility levels and modes. Running it again is harmless: what is
 * already there is answered as such.
 */
public final class ImportConfluentCommand {

    private ImportConfluentCommand() {
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
        out.printf("read %,d records from %s: %,d subject versions, %d configs, %d modes, %d associations"
                        + " (%d records Quire cannot read)%n", state.records, topic,
                state.schemas.size(), state.configs.size(), state.modes.size(), state.associations.size(),
                state.unreadable.size());
        state.unreadable.forEach(why -> out.println("UNREADABLE " + why));
        int written = write(state, target, force, out);
        return state.unreadable.isEmpty() ? written : 1;
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
                    try {
                        state.apply(ConfluentLogCodec.read(r.key(), r.value()));
                    } catch (ConfluentLogCodec.Unreadable e) {
                        state.records++;
                        state.unreadable.add("offset " + r.offset() + ": " + e.getMessage());
                    }
                    progress.update(r.offset() + 1, last, false);
                });
                progress.update(end, end, true);
            }
        }
        return state;
    }

    static int write(SourceState state, Target target, boolean force, PrintStream out) throws Exception {
        RegistryClient node = target.node;
        String previousMode = node.mode(null).orElse("READWRITE");
        try {
            node.setMode(null, "IMPORT", force);
        } catch (RegistryException e) {
            out.println("cannot switch the target to IMPORT mode: " + e.getMessage());
            return 1;
        }
        int problems = 0;
        for (String subject : state.modes.keySet()) {
            // A subject's own mode (READONLY from an earlier run, say) would block its import: IMPORT until the end.
            if (!subject.isEmpty()) {
                problems += check(() -> node.setMode(subject, "IMPORT", true), "IMPORT mode on " + subject, out);
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
                all.add(node.registerAsync(s.subject(), s.request(), false).handle((r, err) -> {
                    inFlight.release();
                    synchronized (failed) {
                        if (err != null) {
                            Throwable cause = err.getCause() != null ? err.getCause() : err;
                            failed.put(s, cause.getMessage());
                        } else {
                            imported.incrementAndGet();
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
        problems += failed.size();
        failed.forEach((s, why) -> out.printf("FAILED %s version %d (id %d): %s%n", s.subject(), s.version(), s.id(),
                why));

        long softDeleted = 0;
        for (SourceSchema s : state.schemas.values()) {
            if (s.deleted() && !failed.containsKey(s)) {
                try {
                    node.deleteVersion(s.subject(), s.version(), false);
                    softDeleted++;
                } catch (RegistryException e) {
                    if (e.errorCode() == 40406) { // soft-deleted already
                        softDeleted++;
                    } else {
                        problems++;
                        out.printf("FAILED soft delete of %s version %d: %s%n", s.subject(), s.version(),
                                e.getMessage());
                    }
                }
            }
        }
        int associations = 0;
        for (AssociationRequest request : associationRequests(state)) {
            problems += check(() -> node.putAssociations(request), "associations of resource "
                    + request.resourceId(), out);
            associations += request.associations().size();
        }
        for (Map.Entry<String, ConfigRequest> e : state.configs.entrySet()) {
            String subject = e.getKey().isEmpty() ? null : e.getKey();
            if (!e.getValue().isEmpty()) {
                problems += check(() -> node.setConfig(subject, e.getValue()), "config of "
                        + (subject == null ? "the registry" : subject), out);
            }
        }
        String finalGlobalMode = state.modes.getOrDefault("", previousMode.equals("IMPORT") ? "READWRITE" : previousMode);
        for (Map.Entry<String, String> e : state.modes.entrySet()) {
            if (!e.getKey().isEmpty()) {
                problems += check(() -> node.setMode(e.getKey(), e.getValue(), true), "mode of " + e.getKey(), out);
            }
        }
        problems += check(() -> node.setMode(null, finalGlobalMode, true), "the registry's mode", out);
        out.printf("imported %,d of %,d subject versions (%,d soft-deleted), %d associations, %d configs,"
                        + " %d modes; global mode now %s; %d problem(s) in %.1f s%n", imported.get(), total,
                softDeleted, associations, state.configs.size(), state.modes.size(), finalGlobalMode, problems,
                progress.seconds());
        return problems == 0 ? 0 : 1;
    }

    /**
     * The source's associations as one {@code PUT /associations} request per resource (id and type):
     * the roles, subjects, lifecycles and frozen flags. Their GUIDs are Quire's own (given by the
     * journal), not the source's.
     */
    static List<AssociationRequest> associationRequests(SourceState state) {
        Map<String, List<Association>> byResource = new TreeMap<>();
        for (Association a : state.associations.values()) {
            byResource.computeIfAbsent(a.resourceId() + '\u0000' + a.resourceType(), k -> new ArrayList<>()).add(a);
        }
        List<AssociationRequest> out = new ArrayList<>();
        for (List<Association> of : byResource.values()) {
            Association first = of.get(0);
            List<AssociationRequest.Entry> entries = new ArrayList<>();
            for (Association a : of) {
                entries.add(new AssociationRequest.Entry(a.subject().name(), a.associationType(), a.lifecycle(),
                        a.frozen(), null, null));
            }
            out.add(new AssociationRequest(first.resourceName(), first.resourceNamespace(), first.resourceId(),
                    first.resourceType(), entries));
        }
        return out;
    }

    /** One call that may be refused; a refusal is printed and counted. */
    interface Call {
        void run() throws IOException, InterruptedException;
    }

    private static int check(Call call, String what, PrintStream out) throws InterruptedException {
        try {
            call.run();
            return 0;
        } catch (IOException e) {
            out.printf("FAILED %s: %s%n", what, e.getMessage());
            return 1;
        }
    }

    /** The Quire node written to, and how many requests may be in flight. */
    static final class Target {
        final RegistryClient node;
        final int concurrency;

        Target(String base, String authorization, int concurrency) {
            this.node = new RegistryClient(base, authorization, Duration.ofSeconds(60));
            this.concurrency = Math.max(1, concurrency);
        }
    }
}
