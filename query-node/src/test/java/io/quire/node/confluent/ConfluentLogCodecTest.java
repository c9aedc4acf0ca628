package io.quire.node.confluent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.confluent.LogRecord.AssociationRecord;
import io.quire.node.confluent.LogRecord.ClearSubjectRecord;
import io.quire.node.confluent.LogRecord.ConfigRecord;
import io.quire.node.confluent.LogRecord.ContextRecord;
import io.quire.node.confluent.LogRecord.DekRecord;
import io.quire.node.confluent.LogRecord.DeleteSubjectRecord;
import io.quire.node.confluent.LogRecord.KekRecord;
import io.quire.node.confluent.LogRecord.ModeRecord;
import io.quire.node.confluent.LogRecord.NoopRecord;
import io.quire.node.confluent.LogRecord.SchemaRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Records as Confluent's registry 8.x writes them (keys with {@code keytype} and {@code magic},
 * values as its {@code SchemaValue}, {@code ConfigValue}, {@code DeleteSubjectValue},
 * {@code AssociationValue}…; the DEK registry's KEK and DEK keys) read into typed values.
 */
public class ConfluentLogCodecTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A file of records, one JSON object with {@code key} and {@code value} per line, as key and value bytes. */
    public static List<byte[][]> records(String resource) throws IOException {
        List<byte[][]> out = new ArrayList<>();
        try (InputStream in = ConfluentLogCodecTest.class.getResourceAsStream("/confluent-log/" + resource);
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                JsonNode n = JSON.readTree(line);
                JsonNode v = n.get("value");
                out.add(new byte[][]{JSON.writeValueAsBytes(n.get("key")),
                        v == null || v.isNull() ? null : JSON.writeValueAsBytes(v)});
            }
        }
        return out;
    }

    static List<LogRecord> read(String resource) throws Exception {
        List<LogRecord> out = new ArrayList<>();
        for (byte[][] kv : records(resource)) {
            out.add(ConfluentLogCodec.read(kv[0], kv[1]));
        }
        return out;
    }

    @Test
    void readsEveryKeyTypeOfTheSchemasTopic() throws Exception {
        List<LogRecord> log = read("schemas-topic.jsonl");
        assertInstanceOf(NoopRecord.class, log.get(0));

        ConfigRecord global = assertInstanceOf(ConfigRecord.class, log.get(1));
        assertNull(global.subject(), "a null subject is the registry's config");
        assertEquals(CompatibilityLevel.FULL, global.value().level());
        assertEquals(Boolean.TRUE, global.value().normalize());

        SchemaRecord withRefs = assertInstanceOf(SchemaRecord.class, log.get(4));
        assertEquals(Subject.of("orders-value"), withRefs.subject());
        assertEquals(Version.of(2), withRefs.version());
        assertEquals(3, withRefs.value().id());
        assertEquals("AVRO", withRefs.value().typeOrAvro());
        assertEquals(Subject.of("address"), withRefs.value().references().get(0).subject());
        assertEquals("team-a", withRefs.value().metadata().properties().get("owner"));
        assertEquals("checkId", withRefs.value().ruleSet().domainRules().get(0).name());
        RegisterRequest imported = withRefs.value().importRequest(withRefs.version());
        assertEquals(3, imported.id());
        assertEquals(2, imported.version());
        assertNull(imported.schemaType(), "Avro goes without a type, as Confluent's clients send it");

        DeleteSubjectRecord partial = assertInstanceOf(DeleteSubjectRecord.class, log.get(8));
        assertTrue(partial.covers(Version.of(2)));
        assertTrue(!partial.covers(Version.of(3)), "a version after the delete's is not covered");

        assertInstanceOf(ClearSubjectRecord.class, log.get(12));
        SchemaRecord tombstone = assertInstanceOf(SchemaRecord.class, log.get(11));
        assertNull(tombstone.value());
        assertTrue(assertInstanceOf(SchemaRecord.class, log.get(13)).value().deleted());
        assertEquals(".eu", assertInstanceOf(ContextRecord.class, log.get(14)).context());
        assertEquals(Subject.of(":.eu:orders-value"), assertInstanceOf(SchemaRecord.class, log.get(15)).subject(),
                "a named context keeps its qualified name");
        assertEquals(Subject.of("plain"), assertInstanceOf(SchemaRecord.class, log.get(16)).subject(),
                "the default context spelled out is the plain subject");

        ConfigRecord subjectConfig = assertInstanceOf(ConfigRecord.class, log.get(17));
        assertEquals(CompatibilityLevel.BACKWARD_TRANSITIVE, subjectConfig.value().level());
        assertEquals(Boolean.TRUE, subjectConfig.value().fields().validateFields());
        assertEquals("team-a", subjectConfig.value().fields().defaultMetadata().properties().get("owner"));
        assertNull(assertInstanceOf(ConfigRecord.class, log.get(19)).value(), "a config's tombstone");
        assertEquals(Mode.READONLY, assertInstanceOf(ModeRecord.class, log.get(20)).mode());

        AssociationRecord strong = assertInstanceOf(AssociationRecord.class, log.get(21));
        assertEquals("t-orders", strong.value().resourceId());
        assertEquals(Lifecycle.STRONG, strong.value().lifecycle());
        assertEquals("value", strong.key().associationType());
        AssociationRecord removed = assertInstanceOf(AssociationRecord.class, log.get(23));
        assertNull(removed.value());
        assertEquals(Subject.of("address"), removed.key().subject());
        assertInstanceOf(NoopRecord.class, log.get(24), "Confluent's reader ignores a DELETE_SUBJECT tombstone");
    }

    @Test
    void readsTheDekRegistrysKeys() throws Exception {
        List<LogRecord> log = read("dek-registry-keys.jsonl");
        KekRecord kek = assertInstanceOf(KekRecord.class, log.get(0));
        assertEquals("kek-1", kek.name());
        assertEquals("local-kms", kek.value().kmsType());
        assertTrue(kek.value().shared());
        DekRecord dek = assertInstanceOf(DekRecord.class, log.get(1));
        assertEquals("orders-value", dek.subject());
        assertEquals(DekAlgorithm.AES256_GCM, dek.value().algorithm());
        assertEquals("ZW5jcnlwdGVk", dek.value().encryptedKeyMaterial());
        assertNull(assertInstanceOf(DekRecord.class, log.get(2)).value());
    }

    @Test
    void plainSchemaRecordsReadInOnePassAsTheTreeReadsThem() throws Exception {
        String[] keys = {
            "{\"keytype\":\"SCHEMA\",\"subject\":\"orders-value\",\"version\":3,\"magic\":1}",
            "{\"magic\":1,\"version\":1,\"subject\":\":.:orders-value\",\"keytype\":\"SCHEMA\"}",
            "{\"keytype\":\"SCHEMA\",\"subject\":\":.ctx:q\\\"u\\u00e9\",\"version\":7,\"magic\":{\"x\":[1]}}",
        };
        String schema = JSON.writeValueAsString("{\"type\":\"record\",\"name\":\"R\",\"doc\":\"q\\\"\\u0001日本\",\"fields\":[]}");
        String[] values = {
            "{\"subject\":\"s\",\"version\":3,\"id\":12,\"schemaType\":\"AVRO\",\"references\":[],\"schema\":" + schema
                    + ",\"deleted\":false}",
            "{\"id\":12,\"schema\":" + schema + "}",
            "{\"id\":2147483647,\"schema\":\"x\",\"schemaType\":null,\"references\":null,\"metadata\":null,"
                    + "\"ruleSet\":null,\"deleted\":true,\"extra\":{\"a\":[{}]}}",
        };
        for (String key : keys) {
            for (String value : values) {
                LogRecord plain = PlainSchemaRecords.read(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
                assertInstanceOf(SchemaRecord.class, plain, key + " " + value + " is plain");
                assertEquals(ConfluentLogCodec.readTree(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)),
                        plain, key + " " + value);
            }
            assertEquals(ConfluentLogCodec.readTree(key.getBytes(StandardCharsets.UTF_8), null),
                    PlainSchemaRecords.read(key.getBytes(StandardCharsets.UTF_8), null), "a tombstone");
        }
        // forms left to the tree (read() then answers as readTree did before)
        String key = keys[0];
        String[] others = {
            "{\"id\":1,\"schema\":\"x\",\"references\":[{\"name\":\"a\",\"subject\":\"b\",\"version\":1}]}",
            "{\"id\":1,\"schema\":\"x\",\"metadata\":{\"properties\":{\"owner\":\"t\"}}}",
            "{\"id\":1,\"schema\":\"x\",\"ruleSet\":{\"domainRules\":[]}}",
            "{\"id\":\"1\",\"schema\":\"x\"}", "{\"id\":1,\"id\":2,\"schema\":\"x\"}",
            "{\"id\":1,\"schema\":\"x\",\"deleted\":\"true\"}", "{\"id\":1,\"schema\":\"x\"} {}",
            "{\"id\":4294967296,\"schema\":\"x\"}", "{\"schema\":\"x\"}", "[1]",
        };
        for (String value : others) {
            assertNull(PlainSchemaRecords.read(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)),
                    value);
        }
        for (String other : new String[] {"{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":\"3\"}",
                "{\"keytype\":\"SCHEMA\",\"subject\":\":.:\",\"version\":3}", "{\"keytype\":\"SCHEMA\",\"version\":3}",
                "{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":0}",
                "{\"keytype\":\"CONFIG\",\"subject\":\"s\",\"magic\":0}", "{\"type\":\"KEK\",\"name\":\"k\"}"}) {
            assertNull(PlainSchemaRecords.read(other.getBytes(StandardCharsets.UTF_8), values[1].getBytes(StandardCharsets.UTF_8)),
                    other);
        }
    }

    @Test
    void refusesWhatConfluentDoesNotWriteAndSaysWhy() {
        byte[] schemaKey = "{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":1,\"magic\":1}".getBytes();
        assertTrue(assertThrows(ConfluentLogCodec.Unreadable.class, () -> ConfluentLogCodec.read(schemaKey,
                "this is not JSON".getBytes())).getMessage().startsWith("not JSON"));
        assertTrue(assertThrows(ConfluentLogCodec.Unreadable.class, () -> ConfluentLogCodec.read(schemaKey,
                "{\"schema\":\"x\"}".getBytes())).getMessage().contains("without an id"));
        assertTrue(assertThrows(ConfluentLogCodec.Unreadable.class, () -> ConfluentLogCodec.read(
                "{\"keytype\":\"TENANT\",\"magic\":0}".getBytes(), null)).getMessage().contains("TENANT"));
        assertTrue(assertThrows(ConfluentLogCodec.Unreadable.class, () -> ConfluentLogCodec.read(
                "{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":0}".getBytes(),
                "{\"compatibilityLevel\":\"SIDEWAYS\"}".getBytes())).getMessage().contains("SIDEWAYS"));
        assertTrue(assertThrows(ConfluentLogCodec.Unreadable.class, () -> ConfluentLogCodec.read(
                "{\"keytype\":\"MODE\",\"subject\":\"s\",\"magic\":0}".getBytes(),
                "{\"mode\":\"ASLEEP\"}".getBytes())).getMessage().contains("ASLEEP"));
        assertTrue(assertThrows(ConfluentLogCodec.Unreadable.class, () -> ConfluentLogCodec.read(null, null))
                .getMessage().contains("without a key"));
    }
}
