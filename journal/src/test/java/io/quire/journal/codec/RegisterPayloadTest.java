package io.quire.journal.codec;

import io.quire.journal.model.Principal;
import io.quire.journal.command.CommandId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.RegisterVersions;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The register payload's own reader against Jackson's binding of the same bytes. */
class RegisterPayloadTest {

    /** What Jackson's binding makes of a payload. */
    private static RegisterSchema bound(String payload) throws IOException {
        return Json.MAPPER.readerFor(RegisterSchema.class).readValue(payload);
    }

    /** What the payload reader makes of it, checking it leaves the parser on the payload's end. */
    private static RegisterSchema read(String payload) throws IOException {
        try (JsonParser p = Json.MAPPER.createParser(payload.getBytes(StandardCharsets.UTF_8))) {
            p.nextToken();
            RegisterSchema c = RegisterPayload.read(p);
            if (c != null) {
                assertEquals(JsonToken.END_OBJECT, p.currentToken());
                assertNull(p.nextToken(), "the reader stopped inside the payload");
            }
            return c;
        }
    }

    private static String payloadOf(RegisterSchema c) throws IOException {
        byte[] record = JournalCodec.encode(Envelope.of(CommandId.of("cmd-1"), "node-1", Principal.of("alice"), 1L, c));
        return Json.MAPPER.readTree(record).get("payload").toString();
    }

    @Test
    void theGoldenRecordsReadAsJacksonBindsThem() throws IOException {
        for (String golden : List.of("/golden/v1/RegisterSchema.json", "/golden/v1/contract/RegisterSchema.json")) {
            try (InputStream in = getClass().getResourceAsStream(golden)) {
                assertNotNull(in, golden);
                String payload = Json.MAPPER.readTree(in).get("payload").toString();
                RegisterSchema c = read(payload);
                assertNotNull(c, golden + " is in the canonical form");
                assertEquals(bound(payload), c, golden);
            }
        }
    }

    @Test
    void encodedCommandsReadBackAsJacksonBindsThem() throws IOException {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            RegisterSchema c = randomCommand(random);
            String payload = payloadOf(c);
            RegisterSchema read = read(payload);
            assertNotNull(read, payload);
            assertEquals(bound(payload), read, payload);
            assertEquals(c, read, payload);
            Envelope e = Envelope.of(CommandId.of("cmd-" + i), "node-1", Principal.of("alice"), i, c);
            assertEquals(e, JournalCodec.decode(JournalCodec.encode(e)));
        }
    }

    @Test
    void groupsOfVersionsReadBackAsJacksonBindsThem() throws IOException {
        Random random = new Random(11);
        for (int i = 0; i < 200; i++) {
            List<RegisterVersions.Member> members = new ArrayList<>();
            for (int k = 1 + random.nextInt(5); k > 0; k--) {
                members.add(new RegisterVersions.Member(random.nextInt(3) == 0 ? null : Principal.of("p-" + oddText(random)),
                        randomCommand(random)));
            }
            RegisterVersions c = new RegisterVersions(Subject.of("s-" + oddText(random)), members);
            Envelope e = Envelope.of(CommandId.of("cmd-" + i), "node-1", Principal.of("alice"), i, c);
            String payload = Json.MAPPER.readTree(JournalCodec.encode(e)).get("payload").toString();
            RegisterVersions read;
            try (JsonParser p = Json.MAPPER.createParser(payload.getBytes(StandardCharsets.UTF_8))) {
                p.nextToken();
                read = RegisterPayload.readVersions(p);
                assertNotNull(read, payload);
                assertEquals(JsonToken.END_OBJECT, p.currentToken());
                assertNull(p.nextToken(), "the reader stopped inside the payload");
            }
            assertEquals(Json.MAPPER.readerFor(RegisterVersions.class).readValue(payload), read, payload);
            assertEquals(c, read, payload);
            assertEquals(e, JournalCodec.decodeStreaming(JournalCodec.encode(e)), "the streaming pass reads it");
        }
        for (String odd : List.of("{\"subject\":\"s\"}", "{\"subject\":\"s\",\"members\":[{\"register\":null}]}",
                "{\"subject\":\"s\",\"members\":[{\"principal\":1,\"register\":{}}]}",
                "{\"subject\":\"s\",\"members\":[],\"extra\":1}", "{\"subject\":7,\"members\":[]}")) {
            try (JsonParser p = Json.MAPPER.createParser(odd.getBytes(StandardCharsets.UTF_8))) {
                p.nextToken();
                assertNull(RegisterPayload.readVersions(p), odd + ": left to Jackson's binding");
            }
        }
    }

    private static RegisterSchema randomCommand(Random r) {
        String text = "{\"type\":\"record\",\"name\":\"R" + r.nextInt(1000) + "\",\"doc\":\"" + oddText(r)
                + "\",\"fields\":[]}";
        List<SchemaReference> refs = new ArrayList<>();
        for (int k = r.nextInt(3); k > 0; k--) {
            refs.add(new SchemaReference("ref" + k, Subject.of("ref-" + oddText(r)), r.nextBoolean() ? null
                    : Version.of(r.nextInt(Integer.MAX_VALUE))));
        }
        Metadata metadata = null;
        if (r.nextInt(4) == 0) {
            metadata = new Metadata(new TreeMap<>(Map.of("R.f", new TreeSet<>(Set.of("PII")))),
                    new TreeMap<>(Map.of("owner", oddText(r))), new TreeSet<>(Set.of("f")));
        }
        CompatibilityLevel[] levels = CompatibilityLevel.values();
        SchemaType[] types = SchemaType.values();
        return new RegisterSchema(Subject.of("s-" + oddText(r)), types[r.nextInt(types.length)], text, refs,
                r.nextInt(10) == 0 ? null : Fingerprint.parse(Long.toHexString(r.nextLong())),
                r.nextInt(10) == 0 ? null : SchemaId.of(r.nextBoolean() ? r.nextInt(1_000_000) : r.nextLong() >>> 1),
                levels[r.nextInt(levels.length)], Offset.of(r.nextBoolean() ? -1 : r.nextLong() >>> 1), metadata, null);
    }

    /** Text with quotes, backslashes, control characters and characters beyond ASCII. */
    private static String oddText(Random r) {
        String[] parts = {"a", "\"", "\\", "\n", "\u0001", "é", "日本", "\uD83D\uDE00", "x/y", " "};
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(6); i >= 0; i--) {
            b.append(parts[r.nextInt(parts.length)]);
        }
        return b.toString();
    }

    /** Forms the encoder never writes: the reader leaves each to Jackson's binding, whose answer stands. */
    @Test
    void otherFormsAreLeftToJacksonsBindingWhichDecides() throws IOException {
        String base = "\"checkedLevel\":\"BACKWARD\",\"checkedRevision\":17,\"fingerprint\":\"ab\",\"proposedId\":1001,"
                + "\"references\":[],\"schema\":\"{}\",\"schemaType\":\"AVRO\",\"subject\":\"s\"";
        List<String> others = List.of(
                "{" + base.replace("1001", "\"1001\"") + "}",                      // a number as a string
                "{" + base.replace("1001", "1001.0") + "}",                        // a number with a fraction
                "{" + base + ",\"proposedId\":1002}",                              // a field twice
                "{" + base + ",\"colour\":\"red\"}",                               // a field it does not know
                "{" + base.replace("\"BACKWARD\"", "\"backward\"") + "}",          // a level by another spelling
                "{" + base.replace("\"AVRO\"", "\"XML\"") + "}",                   // a type that does not exist
                "{" + base.replace("[]", "[{\"name\":\"a\",\"subject\":\"b\",\"version\":4294967296}]") + "}",
                "{" + base.replace("[]", "[{\"name\":\"a\",\"subject\":\"b\",\"version\":1,\"x\":1}]") + "}",
                "{" + base.replace("[]", "{}") + "}",                              // references not a list
                "{" + base.replace("\"s\"", "7") + "}",                            // a subject as a number
                "{" + base.replace("17", "123456789012345678901234567890") + "}"); // past a long
        for (String payload : others) {
            assertNull(read(payload), payload);
            byte[] record = ("{\"v\":1,\"type\":\"RegisterSchema\",\"commandId\":\"c\",\"nodeId\":\"n\","
                    + "\"principal\":\"p\",\"timestamp\":1,\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8);
            RegisterSchema byJackson;
            try {
                byJackson = bound(payload);
            } catch (IOException refused) {
                assertThrows(CorruptRecordException.class, () -> JournalCodec.decode(record), payload);
                continue;
            }
            assertEquals(byJackson, JournalCodec.decode(record).command(), payload);
        }
    }

    @Test
    void nullsAndAbsentFieldsReadAsJacksonBindsThem() throws IOException {
        for (String payload : List.of("{}", "{\"fingerprint\":null,\"proposedId\":null,\"references\":null}",
                "{\"subject\":\"s\",\"references\":[{\"name\":\"a\",\"subject\":\"b\",\"version\":null}]}",
                "{\"subject\":\"s\",\"references\":[{}]}", "{\"metadata\":null,\"ruleSet\":null,\"schema\":\"x\"}")) {
            RegisterSchema c = read(payload);
            assertNotNull(c, payload);
            assertEquals(bound(payload), c, payload);
        }
    }

    /** Lint warnings (a later field) are read in the streaming pass as the binding reads them. */
    @Test
    void lintWarningsAreReadInTheStreamingPass() throws IOException {
        RegisterSchema warned = new RegisterSchema(Subject.of("o"), SchemaType.AVRO, "\"string\"", List.of(),
                Fingerprint.parse("5f0c3e8d1b0e9d7a6c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"), SchemaId.of(3),
                CompatibilityLevel.BACKWARD, Offset.of(4), null, null, List.of("A at x: y", "B at z: w"));
        Envelope e = Envelope.of(CommandId.of("c"), "n", Principal.of("p"), 1L, warned);
        byte[] bytes = JournalCodec.encode(e);
        Envelope fast = JournalCodec.decodeStreaming(bytes);
        assertNotNull(fast, new String(bytes, StandardCharsets.UTF_8));
        assertEquals(e, fast);
        assertEquals(warned, bound(new String(bytes, StandardCharsets.UTF_8).replaceAll("^.*\"payload\":(\\{.*\\})}$", "$1")));
    }

    /** Search terms (a later field) are read in the streaming pass as the binding reads them. */
    @Test
    void searchTermsAreReadInTheStreamingPass() throws IOException {
        RegisterSchema indexed = new RegisterSchema(Subject.of("o"), SchemaType.AVRO, "\"string\"", List.of(),
                Fingerprint.parse("5f0c3e8d1b0e9d7a6c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"), SchemaId.of(3),
                CompatibilityLevel.BACKWARD, Offset.of(4), null, null, List.of("A at x: y"),
                List.of("field\tcustomer_id\tcom.acme.Order.customer_id", "tag\tPII\tcom.acme.Order.customer_id"));
        Envelope e = Envelope.of(CommandId.of("c"), "n", Principal.of("p"), 1L, indexed);
        byte[] bytes = JournalCodec.encode(e);
        Envelope fast = JournalCodec.decodeStreaming(bytes);
        assertNotNull(fast, new String(bytes, StandardCharsets.UTF_8));
        assertEquals(e, fast);
        assertEquals(indexed, bound(new String(bytes, StandardCharsets.UTF_8).replaceAll("^.*\"payload\":(\\{.*\\})}$", "$1")));
    }
}
