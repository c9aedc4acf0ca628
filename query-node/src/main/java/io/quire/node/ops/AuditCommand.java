package io.quire.node.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.view.AuditEntry;
import io.quire.node.config.QuireConfig;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code quire.jar audit}: the audit trail straight from the journal (replayed through the applier,
 * so each line carries the verdict), one JSON object per line, filtered by subject, principal and
 * time. Needs only Kafka, not a running node.
 */
public final class AuditCommand {

    private AuditCommand() {
    }

    public static int run(String[] args, PrintStream out) throws Exception {
        List<String> nodeArgs = new ArrayList<>();
        String subject = null;
        String principal = null;
        Long from = null;
        Long to = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--help" -> {
                    out.println("""
                            usage: java -jar quire.jar audit --bootstrap-servers HOST:PORT [--journal-topic T]
                                   [--subject S] [--principal P] [--from ISO-8601] [--to ISO-8601]
                            Prints one JSON object per journal command: offset, timestamp, principal, node,
                            command, subject, outcome and error code.""");
                    return 0;
                }
                case "--subject" -> subject = args[++i];
                case "--principal" -> principal = args[++i];
                case "--from" -> from = Instant.parse(args[++i]).toEpochMilli();
                case "--to" -> to = Instant.parse(args[++i]).toEpochMilli();
                default -> nodeArgs.add(args[i]);
            }
        }
        QuireConfig config = QuireConfig.from(false, nodeArgs.toArray(String[]::new), System.getenv());
        AuditEntry.Filter filter = new AuditEntry.Filter(subject == null ? null : Subject.of(subject),
                principal == null ? null : Principal.of(principal), from, to);
        OfflineRebuild.rebuild(config.kafkaProperties(), config.journalTopic(), (offset, envelope, outcome) -> {
            AuditEntry e = AuditEntry.of(offset, envelope, outcome);
            if (filter.matches(e)) {
                try {
                    out.println(Json.MAPPER.writeValueAsString(e));
                } catch (JsonProcessingException ex) {
                    throw new IllegalStateException(ex);
                }
            }
        });
        return 0;
    }
}
