package io.quire.node.it;

import io.quire.node.kafka.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;

/** One real in-process KRaft broker per test JVM, shared by every integration test. */
final class SharedKafka {

    private static EmbeddedKafka broker;

    private SharedKafka() {
    }

    static synchronized String bootstrapServers() {
        if (broker == null) {
            try {
                Path dir = Files.createTempDirectory("quire-it-kafka");
                broker = new EmbeddedKafka(dir).start();
                Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the in-process broker", e);
            }
        }
        return broker.bootstrapServers();
    }
}
