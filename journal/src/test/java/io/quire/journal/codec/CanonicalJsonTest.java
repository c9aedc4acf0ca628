package io.quire.journal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.Envelope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The streaming pass reads every record Quire writes; what it does not read, the tree reads alike. */
class CanonicalJsonTest {

    static List<Path> goldenRecords() throws IOException {
        Path dir = Path.of("src", "test", "resources", "golden", "v1");
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
    }

    @Test
    void everyGoldenRecordIsReadInOneStreamingPass() throws IOException {
        int streamed = 0;
        int copied = 0;
        for (Path f : goldenRecords()) {
            byte[] bytes = Files.readString(f).strip().getBytes(StandardCharsets.UTF_8);
            Envelope tree = JournalCodec.decodeTree(bytes);
            Envelope fast = JournalCodec.decodeStreaming(bytes);
            assertNotNull(fast, f + " is canonical: the streaming pass must read it");
            assertEquals(tree, fast, f.toString());
            streamed++;
            copied += tree.source() != null ? 1 : 0;
        }
        assertTrue(streamed >= 25, "golden records read: " + streamed);
        assertTrue(copied >= 1, "copied records (with a source) read: " + copied);
    }

    @Test
    void aSourceInEveryFormEncodeWritesIsReadAsTheTreeReadsIt() {
        String head = "{\"v\":1,\"type\":\"DeleteExporter\",\"commandId\":\"c\",\"nodeId\":\"n\",\"principal\":\"p\","
                + "\"timestamp\":1,\"payload\":{\"name\":\"dr\"}";
        Envelope plain = JournalCodec.decodeTree((head + "}").getBytes(StandardCharsets.UTF_8));
        for (Envelope.Source s : List.of(new Envelope.Source("src", 7, 0, null, null),
                new Envelope.Source("src", 1L << 40, 2, 6L, 1), new Envelope.Source("src", 0, 0, 0L, 0))) {
            Envelope e = new Envelope(plain.version(), plain.commandId(), plain.nodeId(), plain.principal(),
                    plain.timestamp(), plain.command(), s, plain.epoch());
            byte[] bytes = JournalCodec.encode(e);
            assertEquals(JournalCodec.decodeTree(bytes), JournalCodec.decodeStreaming(bytes), s.toString());
            assertEquals(s, JournalCodec.decodeStreaming(bytes).source());
        }
        assertNull(JournalCodec.decodeStreaming((head + ",\"source\":{\"offset\":3}}").getBytes(StandardCharsets.UTF_8)),
                "no name: left to the tree, which refuses it");
        assertNull(JournalCodec.decodeStreaming((head + ",\"source\":{\"name\":\"s\",\"offset\":\"3\"}}")
                .getBytes(StandardCharsets.UTF_8)));
        assertNull(JournalCodec.decodeStreaming((head + ",\"source\":{\"name\":\"s\",\"offset\":3,\"x\":1}}")
                .getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aFieldTwiceOrOfAnotherTypeIsLeftToTheTree() {
        String head = "{\"v\":1,\"type\":\"DeleteExporter\",\"commandId\":\"c\",\"nodeId\":\"n\",\"principal\":\"p\","
                + "\"timestamp\":1,\"payload\":{\"name\":\"dr\"}";
        assertNotNull(JournalCodec.decodeStreaming((head + "}").getBytes(StandardCharsets.UTF_8)));
        assertNull(JournalCodec.decodeStreaming((head + ",\"epoch\":\"2\"}").getBytes(StandardCharsets.UTF_8)));
        assertNull(JournalCodec.decodeStreaming((head + ",\"nodeId\":\"m\"}").getBytes(StandardCharsets.UTF_8)));
        assertEquals("m", JournalCodec.decode((head + ",\"nodeId\":\"m\"}").getBytes(StandardCharsets.UTF_8)).nodeId());
        assertEquals(3, JournalCodec.decodeStreaming((head + ",\"epoch\":3}").getBytes(StandardCharsets.UTF_8)).epoch());
    }
}
