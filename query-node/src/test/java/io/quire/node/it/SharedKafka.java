package io.quire.node.it;

import io.quire.node.kafka.EmbeddedKafka;
import io.quire.node.view.snapshot.Folders;
import java.nio.file.Files;
import java.nio.file.Path;

/** One real in-process KRaft broker per test JVM, shared by every integration test; its folder is deleted when the JVM exits. */
final class SharedKafka {

    private static EmbeddedKafka broker;

    private SharedKafka() {
    }

    static synchronized String bootstrapServers() {
        if (broker == null) {
            try {
                Path dir = Files.createTempDirectory("quire-it-kafka");
                broker = new EmbeddedKafka(dir).start();
                EmbeddedKafka started = broker;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> { // the broker's log goes with the JVM
                    started.close();
                    try {
                        Folders.deleteTree(dir);
                    } catch (java.io.IOException e) {
                        System.err.println("could not delete " + dir + ": " + e);
                    }
                }));
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the in-process broker", e);
            }
        }
        return broker.bootstrapServers();
    }
}
