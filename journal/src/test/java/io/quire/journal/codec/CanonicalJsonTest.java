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
    void everyGoldenRecordWithoutASourceIsReadInOneStreamingPass() throws IOException {
        int streamed = 0;
        for (Path f : goldenRecords()) {
            byte[] bytes = Files.readString(f).strip().getBytes(StandardCharsets.UTF_8);
            Envelope tree = JournalCodec.decode(bytes);
            Envelope fast = JournalCodec.decodeStreaming(bytes);
            if (tree.source() != null) {
                assertNull(fast, f + ": a copied record's source is read by the tree");
                continue;
            }
            assertNotNull(fast, f + " is canonical: the streaming pass must read it");
            assertEquals(tree, fast, f.toString());
            streamed++;
        }
        assertTrue(streamed >= 25, "golden records read: " + streamed);
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
