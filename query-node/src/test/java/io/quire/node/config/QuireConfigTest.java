package io.quire.node.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuireConfigTest {

    @Test
    void flagsWinOverEnvironmentWhichWinsOverDefaults() {
        QuireConfig c = QuireConfig.from(false, new String[] {"--port", "9000", "--bootstrap-servers=k:9092"},
                Map.of("QUIRE_PORT", "7000", "QUIRE_ID_BLOCK_SIZE", "50", "QUIRE_KAFKA_SECURITY_PROTOCOL", "SSL"));
        assertEquals(9000, c.port());
        assertEquals(50, c.idBlockSize());
        assertEquals("k:9092", c.bootstrapServers());
        assertEquals("node-9000", c.nodeId());
        assertEquals(Path.of("./quire-data"), c.dataDir());
        assertEquals("SSL", c.kafkaProperties().get("security.protocol"));
        assertEquals(3, c.journalReplication(), "production replication by default in serve");
    }

    @Test
    void devDefaultsToOneBrokerReplication() {
        QuireConfig c = QuireConfig.from(true, new String[0], Map.of());
        assertEquals(1, c.journalReplication());
        assertEquals(1, c.journalMinIsr());
        assertEquals(8081, c.port());
    }

    @Test
    void invalidSettingsAreRefusedAtStartUp() {
        assertThrows(IllegalArgumentException.class, () -> QuireConfig.from(false, new String[0], Map.of()),
                "serve needs bootstrap servers");
        assertThrows(IllegalArgumentException.class, () -> QuireConfig.from(true, new String[] {"--port", "x"}, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> QuireConfig.from(true,
                new String[] {"--peer-nodes", "http://a:8081,ftp://b"}, Map.of()), "peers are http(s) URLs");
        assertEquals(java.util.List.of("http://a:8081", "https://b:8443"), QuireConfig.from(true,
                new String[] {"--peer-nodes", " http://a:8081/ , https://b:8443,"}, Map.of()).peerNodes());
        assertThrows(IllegalArgumentException.class, () -> QuireConfig.from(true, new String[] {"--nope", "1"}, Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> QuireConfig.from(true, new String[] {"--id-block-size", "0"}, Map.of()));
    }

    @Test
    void theJournalProducersLingerIsOneMillisecondUnlessSet() {
        assertEquals(1, QuireConfig.from(true, new String[0], Map.of()).journalLingerMs());
        QuireConfig five = QuireConfig.from(true, new String[0], Map.of("QUIRE_JOURNAL_LINGER_MS", "5"));
        assertEquals(5, five.journalLingerMs());
        assertTrue(five.describe().contains("journal-linger-ms=5"));
        assertThrows(IllegalArgumentException.class,
                () -> QuireConfig.from(true, new String[] {"--journal-linger-ms", "-1"}, Map.of()));
    }

    @Test
    void secretsAreRedactedInTheStartUpLine() {
        QuireConfig c = QuireConfig.from(true, new String[] {"--kafka", "ssl.keystore.password=hunter2"}, Map.of());
        assertFalse(c.describe().contains("hunter2"));
        assertTrue(c.describe().contains("ssl.keystore.password=***"));
    }

    @Test
    void theReadmeTableIsTheGeneratedOne() throws java.io.IOException {
        String table = ConfigKey.markdownTable();
        for (ConfigKey k : ConfigKey.values()) {
            assertTrue(table.contains("`--" + k.flag + "`") && table.contains(k.env), k.name());
        }
        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
        for (String row : table.split("\n")) {
            assertTrue(readme.contains(row), "README.md lacks the row (java -jar quire.jar config prints it): " + row);
        }
    }
}
