package io.quire.node.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.client.RegistryClient;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.Promote;
import io.quire.journal.model.Principal;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code quire.jar promote --node URL}: makes the node's region the primary once the primary region
 * is lost. The node journals the promotion (a new epoch, ids above every block granted plus
 * {@code --id-gap}); records of the old epoch that still arrive are refused. With
 * {@code --fence-bootstrap-servers} and {@code --fence-topic} it also writes the promotion into the
 * old primary's journal, so that its nodes refuse writes when that region comes back.
 */
public final class PromoteCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PromoteCommand() {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, Set.of("node", "user", "id-gap", "fence-bootstrap-servers", "fence-topic"));
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar promote --node http://quire.eu-central:8081 [--user admin:password]
                           [--id-gap 100000] [--fence-bootstrap-servers H:P --fence-topic T]
                    Makes the region of the node (started with --journal-follow) the primary: stop the mirror
                    first. Ids continue above every block granted plus --id-gap (room for blocks the lost primary
                    granted that never reached the mirror). With --fence-* the promotion is also written into
                    the old primary's journal, so that its nodes refuse writes when they come back
                    (docs/regions.md). Exit 0 when promoted, 1 otherwise.""");
            return 0;
        }
        RegistryClient node = new RegistryClient(flags.required("node").strip(), flags.basicAuthorization(), Duration.ofSeconds(30));
        String gap = flags.own.get("id-gap"); // absent: the node's default (Regions.DEFAULT_ID_GAP)
        long t0 = System.nanoTime();
        RegistryClient.Response r = node.send("POST", "/admin/promote" + (gap == null ? "" : "?idGap=" + Long.parseLong(gap)),
                null);
        if (r.status() != 200) {
            out.println("not promoted: " + r.body());
            return 1;
        }
        JsonNode p = JSON.readTree(r.body());
        out.printf("region %s is the primary from epoch %d (journal offset %d); ids continue from %d; %.0f ms%n",
                p.path("region").asText(), p.path("epoch").asInt(), p.path("offset").asLong(), p.path("nextId").asLong(),
                (System.nanoTime() - t0) / 1e6);
        String fenceServers = flags.own.getOrDefault("fence-bootstrap-servers", "");
        if (!fenceServers.isEmpty()) {
            fence(fenceServers, flags.required("fence-topic"), p.path("region").asText(), p.path("epoch").asInt());
            out.println("fenced: the old primary's journal " + flags.own.get("fence-topic") + " names region "
                    + p.path("region").asText() + " the primary; its nodes refuse writes");
        }
        return 0;
    }

    /** Appends the promotion to the old primary's journal, at the epoch before it. */
    static void fence(String servers, String topic, String region, int epoch) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", servers);
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        props.put("request.timeout.ms", "15000");
        props.put("delivery.timeout.ms", "30000");
        Envelope e = Envelope.of(CommandId.random(), "promote", Principal.of("promote"), System.currentTimeMillis(),
                new Promote(region, epoch, 0))
                .atEpoch(epoch - 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, e.commandId().value().getBytes(StandardCharsets.UTF_8),
                    JournalCodec.encode(e)))
                    .get();
        }
    }
}
