package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.journal.JournalContract;
import io.quire.node.config.QuireConfig;
import io.quire.node.kafka.JournalAdmin;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code quire.jar journal export|import}: the journal as NDJSON, one record per line with its offset,
 * key and value ({@code {"offset":N,"key":"…","value":{…}}}; a value that is not JSON is kept as
 * {@code valueBase64}). Import writes into a fresh, empty journal and checks that every record lands at
 * its original offset, so a node built from the copy has the same position digest as one built from
 * the original.
 */
public final class JournalCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JournalCommand() {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        if (args.length == 0 || !(args[0].equals("export") || args[0].equals("import"))) {
            out.println(help());
            return args.length > 0 && (args[0].equals("--help") || args[0].equals("-h")) ? 0 : 2;
        }
        Flags flags = new Flags(Arrays.copyOfRange(args, 1, args.length), Set.of("file"));
        if (flags.help) {
            out.println(help());
            return 0;
        }
        QuireConfig config = QuireConfig.from(false, flags.rest.toArray(String[]::new), System.getenv());
        Path file = Path.of(flags.required("file"));
        return args[0].equals("export") ? export(config, file, out) : importInto(config, file, out);
    }

    static String help() {
        return """
                usage: java -jar quire.jar journal export --file OUT.ndjson --bootstrap-servers H:P [--journal-topic T]
                       java -jar quire.jar journal import --file IN.ndjson --bootstrap-servers H:P --journal-topic NEW
                export writes every journal record, offsets and keys kept, one JSON object per line.
                import creates NEW (it must be absent or empty) and writes the records back at the same offsets.
                Kafka client settings: --kafka key=value or QUIRE_KAFKA_* variables.""";
    }

    static int export(QuireConfig config, Path file, PrintStream out) throws Exception {
        TopicPartition tp = new TopicPartition(config.journalTopic(), 0);
        Progress progress = new Progress(out, "export");
        long[] n = {0};
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            long end = TopicReader.readToEnd(config.kafkaProperties(), tp, (r, last) -> {
                ObjectNode line = JSON.createObjectNode();
                line.put("offset", r.offset());
                line.put("key", r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8));
                try {
                    line.set("value", JSON.readTree(r.value()));
                } catch (IOException e) {
                    line.put("valueBase64", Base64.getEncoder().encodeToString(r.value()));
                }
                w.write(JSON.writeValueAsString(line));
                w.newLine();
                n[0]++;
                progress.update(n[0], last, false);
            });
            progress.update(n[0], end, true);
        }
        out.printf("exported %d records to %s in %.1f s%n", n[0], file, progress.seconds());
        return 0;
    }

    static int importInto(QuireConfig config, Path file, PrintStream out) throws Exception {
        try (JournalAdmin admin = new JournalAdmin(config.kafkaProperties(), config.journalTopic())) {
            admin.ensureJournal(config.journalReplication(), config.journalMinIsr());
            if (admin.endOffset(30_000) != 0) {
                out.println("journal " + config.journalTopic() + " is not empty: import needs a fresh journal");
                return 1;
            }
        }
        long total;
        try (var lines = Files.lines(file)) {
            total = lines.count();
        }
        Properties p = config.kafkaProperties();
        p.putAll(JournalContract.producerConfig());
        p.put("linger.ms", "5");
        Progress progress = new Progress(out, "import");
        AtomicReference<String> failure = new AtomicReference<>();
        long n = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer()); BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String text;
            while ((text = r.readLine()) != null && failure.get() == null) {
                JsonNode line = JSON.readTree(text);
                long expected = line.get("offset").asLong();
                byte[] key = line.hasNonNull("key") ? line.get("key").asText().getBytes(StandardCharsets.UTF_8) : null;
                byte[] value = line.has("valueBase64") ? Base64.getDecoder().decode(line.get("valueBase64").asText())
                        : JSON.writeValueAsBytes(line.get("value"));
                producer.send(new ProducerRecord<>(config.journalTopic(), 0, key, value), (md, err) -> {
                    if (err != null) {
                        failure.compareAndSet(null, "write failed at offset " + expected + ": " + err);
                    } else if (md.offset() != expected) {
                        failure.compareAndSet(null, "record " + expected + " landed at offset " + md.offset()
                                + "; the export has gaps, so offsets cannot be preserved");
                    }
                });
                n++;
                progress.update(n, total, false);
            }
            producer.flush();
        }
        progress.update(n, total, true);
        if (failure.get() != null) {
            out.println("import failed: " + failure.get());
            return 1;
        }
        out.printf("imported %d records into %s in %.1f s, offsets preserved%n", n, config.journalTopic(),
                progress.seconds());
        return 0;
    }
}
