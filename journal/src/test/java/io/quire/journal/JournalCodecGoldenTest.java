package io.quire.journal;

import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.command.CommandId;
import io.quire.journal.model.Fingerprint;
import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static io.quire.journal.Values.vs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandType;
import io.quire.journal.command.CreateDek;
import io.quire.journal.command.CreateKek;
import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteContext;
import io.quire.journal.command.DeleteDek;
import io.quire.journal.command.DeleteKek;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.command.UndeleteDek;
import io.quire.journal.command.UndeleteKek;
import io.quire.journal.command.UpdateKek;
import io.quire.journal.model.Association;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Context;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Lifecycle;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Rule;
import io.quire.journal.model.RuleKind;
import io.quire.journal.model.RuleMode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.SubjectDeleted;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One golden record per command type and envelope version, under {@code golden/v1/}. A golden file
 * is never edited: a new envelope version gets new files, and the old ones must still decode.
 */
class JournalCodecGoldenTest {

    static final Map<CommandType, Command> EXAMPLES = new EnumMap<>(CommandType.class);

    static {
        EXAMPLES.put(CommandType.REGISTER_SCHEMA, new RegisterSchema(s("orders-value"), SchemaType.AVRO,
                "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}",
                List.of(new SchemaReference("Customer", s("customer-value"), v(2))),
                Fingerprint.parse("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"), id(1001),
                CompatibilityLevel.BACKWARD, at(17)));
        EXAMPLES.put(CommandType.DELETE_SUBJECT, new DeleteSubject(s("orders-value"), true));
        EXAMPLES.put(CommandType.DELETE_VERSION, new DeleteVersion(s("orders-value"), v(3), false));
        EXAMPLES.put(CommandType.SET_CONFIG, new SetConfig(s("orders-value"), CompatibilityLevel.FULL_TRANSITIVE));
        EXAMPLES.put(CommandType.DELETE_CONFIG, new DeleteConfig(null));
        EXAMPLES.put(CommandType.SET_MODE, new SetMode(null, Mode.READONLY));
        EXAMPLES.put(CommandType.DELETE_MODE, new DeleteMode(s("orders-value")));
        EXAMPLES.put(CommandType.LEASE_ID_BLOCK, new LeaseIdBlock("node-1", "lease-7", 1000));
        EXAMPLES.put(CommandType.IMPORT_SCHEMA, new ImportSchema(s("orders-value"), SchemaType.AVRO,
                "{\"type\":\"string\"}", List.of(),
                Fingerprint.parse("2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"), id(70000), v(4)));
        EXAMPLES.put(CommandType.SET_ASSOCIATIONS, new SetAssociations(List.of(new Association(s("orders-value"),
                "orders", "lkc-1", "topic-id-1", "topic", "value", Lifecycle.STRONG, false)), false));
        EXAMPLES.put(CommandType.DELETE_ASSOCIATIONS, new DeleteAssociations("topic-id-1", "topic", List.of("value")));
        EXAMPLES.put(CommandType.DELETE_CONTEXT, new DeleteContext(Context.parse(".staging")));
        EXAMPLES.put(CommandType.CREATE_KEK, new CreateKek("payments-kek", "local-kms", "mykey",
                Map.of("region", "eu-1"), "for payments", false));
        EXAMPLES.put(CommandType.UPDATE_KEK, new UpdateKek("payments-kek", null, "rotated yearly", true));
        EXAMPLES.put(CommandType.DELETE_KEK, new DeleteKek("payments-kek", false));
        EXAMPLES.put(CommandType.UNDELETE_KEK, new UndeleteKek("payments-kek"));
        EXAMPLES.put(CommandType.CREATE_DEK, new CreateDek("payments-kek", "payments-value", 2, DekAlgorithm.AES256_SIV,
                "c2VjcmV0IHdyYXBwZWQgYnkgdGhlIGttcw=="));
        EXAMPLES.put(CommandType.DELETE_DEK, new DeleteDek("payments-kek", "payments-value", DekAlgorithm.AES256_GCM,
                null, true));
        EXAMPLES.put(CommandType.UNDELETE_DEK, new UndeleteDek("payments-kek", "payments-value", DekAlgorithm.AES256_GCM,
                1));
        EXAMPLES.put(CommandType.SET_FOLLOW, new io.quire.journal.command.SetFollow(
                "confluent:kafka-1:9092/_schemas", true, -1));
        EXAMPLES.put(CommandType.PUT_EXPORTER, new io.quire.journal.command.PutExporter("dr", true, "CUSTOM", "dr-west",
                java.util.List.of("orders-*"), "${subject}-dr", java.util.Map.of("schema.registry.url",
                "http://registry-west:8081")));
        EXAMPLES.put(CommandType.DELETE_EXPORTER, new io.quire.journal.command.DeleteExporter("dr"));
        EXAMPLES.put(CommandType.CONTROL_EXPORTER, new io.quire.journal.command.ControlExporter("dr", "PAUSE"));
        EXAMPLES.put(CommandType.EXPORTER_PROGRESS, new io.quire.journal.command.ExporterProgress("dr", "node-2", 1,
                10_000, Offset.of(4_711L), null));
        EXAMPLES.put(CommandType.PROMOTE, new io.quire.journal.command.Promote("eu-central", 1, 1_001_000));
        EXAMPLES.put(CommandType.REGISTER_VERSIONS, new io.quire.journal.command.RegisterVersions(s("orders-value"),
                List.of(new io.quire.journal.command.RegisterVersions.Member(null, new RegisterSchema(s("orders-value"),
                                SchemaType.AVRO, "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[]}", List.of(),
                                Fingerprint.parse("1b4f0e9870cdf8b5e2c6a1d0e7f3c9b8a6d5e4f3c2b1a09f8e7d6c5b4a392817"),
                                id(1002), CompatibilityLevel.BACKWARD, at(17))),
                        new io.quire.journal.command.RegisterVersions.Member(io.quire.journal.model.Principal.of("bob"),
                                new RegisterSchema(s("orders-value"), SchemaType.AVRO,
                                "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"note\","
                                        + "\"type\":[\"null\",\"string\"],\"default\":null}]}", List.of(),
                                Fingerprint.parse("2c5a1f0981de09c6f3d7b2e1f8a4d0c9b7e6f5a4d3c2b1a0f9e8d7c6b5a4a3b2"),
                                id(1003), CompatibilityLevel.BACKWARD, Offset.THIS_RECORD)))));
        EXAMPLES.put(CommandType.IMPORT_SCHEMAS, new io.quire.journal.command.ImportSchemas(List.of(
                new io.quire.journal.command.ImportSchemas.Copied(41, new ImportSchema(s("orders-value"), SchemaType.AVRO,
                        "{\"type\":\"string\"}", List.of(),
                        Fingerprint.parse("2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"), id(70000), v(4))),
                new io.quire.journal.command.ImportSchemas.Copied(43, new ImportSchema(s("payments-value"),
                        SchemaType.AVRO, "{\"type\":\"int\"}", List.of(),
                        Fingerprint.parse("0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"), id(70001),
                        v(1))))));
        EXAMPLES.put(CommandType.TAKE_LEASE, new io.quire.journal.command.TakeLease("schema-resources", "node-2",
                15_000));
        EXAMPLES.put(CommandType.APPLY_CHANGE_SET, new io.quire.journal.command.ApplyChangeSet("git:4e1f0c2",
                "orders: add the customer reference", List.of(
                        new io.quire.journal.command.ApplyChangeSet.Expected(s("customer-value"), v(2)),
                        new io.quire.journal.command.ApplyChangeSet.Expected(s("orders-value"), null)),
                java.util.stream.Stream.of(new SetConfig(s("orders-value"), CompatibilityLevel.FULL, true),
                        new RegisterSchema(s("orders-value"), SchemaType.AVRO, "{\"type\":\"string\"}",
                                List.of(new SchemaReference("Customer", s("customer-value"), v(2))),
                                Fingerprint.parse("5f0c3e8d1b0e9d7a6c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"),
                                id(1003), CompatibilityLevel.FULL, at(-1)),
                        new DeleteConfig(s("legacy-value")), new DeleteSubject(s("legacy-value"), false))
                        .map(io.quire.journal.command.ApplyChangeSet.Step::of).toList()));
    }

    /** A record written after a promotion carries the region epoch; records of epoch 0 keep their form. */
    @Test
    void aRecordOfAPromotedJournalCarriesItsEpoch() throws IOException {
        String golden = golden("golden/v1/later/SetMode-epoch.json");
        Envelope e = envelope(EXAMPLES.get(CommandType.SET_MODE)).atEpoch(2);
        assertEquals(e, JournalCodec.decode(golden.getBytes(StandardCharsets.UTF_8)));
        assertEquals(golden, new String(JournalCodec.encode(e), StandardCharsets.UTF_8));
        assertEquals(2, JournalCodec.decode(golden.replace("\"epoch\":2", "\"epoch\":2 ").getBytes(StandardCharsets.UTF_8))
                .epoch(), "the tree reader too");
    }

    /** A record copied from a followed registry: the envelope names the source and its offset there. */
    @Test
    void aCopiedRecordCarriesItsSourceAndOlderReadersIgnoreIt() throws IOException {
        String golden = golden("golden/v1/later/SetMode-followed.json");
        Envelope e = envelope(EXAMPLES.get(CommandType.SET_MODE)).from(new Envelope.Source("confluent:kafka-1:9092/_schemas", 42));
        assertEquals(e, JournalCodec.decode(golden.getBytes(StandardCharsets.UTF_8)));
        assertEquals(golden, new String(JournalCodec.encode(e), StandardCharsets.UTF_8));
        // the same record without the field is the plain command
        assertEquals(envelope(EXAMPLES.get(CommandType.SET_MODE)),
                JournalCodec.decode(golden("golden/v1/SetMode.json").getBytes(StandardCharsets.UTF_8)));
    }

    static Envelope envelope(Command c) {
        return Envelope.of(CommandId.of("3f1c2a4e-0000-4000-8000-000000000001"), "node-1", Principal.of("alice"), 1_764_460_800_000L, c);
    }

    @Test
    void everyCommandTypeHasAGoldenRecordThatDecodesAndEncodesByteForByte() throws IOException {
        for (CommandType type : CommandType.values()) {
            Command example = EXAMPLES.get(type);
            assertNotNull(example, "no example for " + type);
            String golden = golden("golden/v1/" + type.wireName + ".json");
            assertEquals(envelope(example), JournalCodec.decode(golden.getBytes(StandardCharsets.UTF_8)), type.wireName);
            assertEquals(golden, new String(JournalCodec.encode(envelope(example)), StandardCharsets.UTF_8), type.wireName);
        }
    }

    /** A journal record as it was built before it was written in one pass: a tree. */
    static byte[] treeEncoding(Envelope e) throws IOException {
        var mapper = io.quire.journal.codec.Json.MAPPER;
        var root = mapper.createObjectNode();
        root.put("v", e.version());
        root.put("type", e.command().type().wireName);
        root.put("commandId", e.commandId().value());
        root.put("nodeId", e.nodeId());
        root.put("principal", e.principal().name());
        root.put("timestamp", e.timestamp());
        root.set("payload", mapper.valueToTree(e.command()));
        return mapper.writeValueAsBytes(root);
    }

    @Test
    void recordsAreWrittenByteForByteAsTheirTreeWas() throws IOException {
        List<Command> commands = new ArrayList<>(EXAMPLES.values());
        commands.addAll(CONTRACT_EXAMPLES);
        commands.add(new DeleteAssociations("topic-id-1", "topic", List.of("value"), true));
        for (Command c : commands) {
            for (Envelope e : List.of(envelope(c), Envelope.of(CommandId.of("c-\"\u00e9\n"), "n\\1", null, -1L, c),
                    Envelope.of(CommandId.of(""), "", Principal.of("\ud83d\ude00"), Long.MAX_VALUE, c))) {
                assertEquals(new String(treeEncoding(e), StandardCharsets.UTF_8),
                        new String(JournalCodec.encode(e), StandardCharsets.UTF_8), c.type().wireName);
            }
        }
    }

    /** Records with a data contract (written since contracts exist), one per command that carries one. */
    static final List<Command> CONTRACT_EXAMPLES = List.of(
            new RegisterSchema(s("orders-value"), SchemaType.AVRO, "{\"type\":\"string\"}", List.of(),
                    Fingerprint.parse("5f0c3e8d1b0e9d7a6c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"), id(1002),
                    CompatibilityLevel.BACKWARD, at(18),
                    Metadata.of(Map.of("Order.id", List.of("PII")), Map.of("owner", "team-a"), List.of("id")),
                    new RuleSet(null, List.of(new Rule("checkId", null, RuleKind.CONDITION, RuleMode.WRITE, "CEL",
                            null, null, "message.id > 0", null, "ERROR", false)), null)),
            new ImportSchema(s("orders-value"), SchemaType.AVRO, "{\"type\":\"int\"}", List.of(),
                    Fingerprint.parse("0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"), id(70001), v(5),
                    Metadata.of(null, Map.of("major", "2"), null),
                    new RuleSet(List.of(new Rule("up", "v1 to v2", RuleKind.TRANSFORM, RuleMode.UPGRADE, "JSONATA",
                            null, Map.of("k", "v"), "$merge([$, {'note': ''}])", null, null, false)), null, null)),
            new SetConfig(s("orders-value"), null, null, new ConfigFields(null, null, null, "major",
                    Metadata.of(null, Map.of("owner", "team-a"), null), null, null, null), List.of("alias")));

    @Test
    void recordsWithADataContractHaveGoldenRecordsAndOlderOnesDecodeWithout() throws IOException {
        for (Command example : CONTRACT_EXAMPLES) {
            String file = "golden/v1/contract/" + example.type().wireName + ".json";
            String encoded = new String(JournalCodec.encode(envelope(example)), StandardCharsets.UTF_8);
            String golden = golden(file);
            assertEquals(envelope(example), JournalCodec.decode(golden.getBytes(StandardCharsets.UTF_8)), file);
            assertEquals(golden, encoded, file);
        }
        RegisterSchema old = (RegisterSchema) JournalCodec.decode(golden("golden/v1/RegisterSchema.json")
                .getBytes(StandardCharsets.UTF_8)).command();
        assertNull(old.metadata(), "a record from before contracts has none");
        assertNull(old.ruleSet());
    }

    /** A registration with lint warnings (a later field): read in the one streaming pass and through the tree alike. */
    @Test
    void aRegistrationWithLintWarningsHasAGoldenRecord() throws IOException {
        RegisterSchema warned = new RegisterSchema(s("orders-value"), SchemaType.AVRO, "{\"type\":\"string\"}",
                List.of(), Fingerprint.parse("5f0c3e8d1b0e9d7a6c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605"),
                id(1004), CompatibilityLevel.BACKWARD, at(19), null, null,
                List.of("AVRO_NAMESPACE_DEFINED at Order: record Order has no namespace"));
        String golden = golden("golden/v1/later/RegisterSchema-lint.json");
        byte[] bytes = golden.getBytes(StandardCharsets.UTF_8);
        assertEquals(envelope(warned), JournalCodec.decode(bytes));
        assertEquals(golden, new String(JournalCodec.encode(envelope(warned)), StandardCharsets.UTF_8));
        RegisterSchema old = (RegisterSchema) JournalCodec.decode(golden("golden/v1/RegisterSchema.json")
                .getBytes(StandardCharsets.UTF_8)).command();
        assertEquals(List.of(), old.lintWarnings(), "a record from before lint has none");
    }

    /** A field added to a command later: the new record has its golden file, the older one decodes without it. */
    @Test
    void aCascadingAssociationDeleteHasAGoldenRecordAndOlderOnesDoNotCascade() throws IOException {
        DeleteAssociations cascading = new DeleteAssociations("topic-id-1", "topic", List.of("value"), true);
        String golden = golden("golden/v1/later/DeleteAssociations-cascade.json");
        assertEquals(envelope(cascading), JournalCodec.decode(golden.getBytes(StandardCharsets.UTF_8)));
        assertEquals(golden, new String(JournalCodec.encode(envelope(cascading)), StandardCharsets.UTF_8));
        DeleteAssociations old = (DeleteAssociations) JournalCodec.decode(golden("golden/v1/DeleteAssociations.json")
                .getBytes(StandardCharsets.UTF_8)).command();
        assertEquals(false, old.cascades());
    }

    @Test
    void outcomesRoundTrip() {
        for (var o : List.of(new SchemaRegistered(id(5), v(2), true), new SubjectDeleted(vs(1, 2)),
                new BlockGranted(1001, 1000), new Rejected(ErrorCode.SUBJECT_NOT_FOUND, "Subject 'x' not found."))) {
            var decoded = JournalCodec.decodeOutcome(JournalCodec.encodeOutcome(CommandId.of("c1"), o));
            assertEquals(o, decoded.outcome());
            assertEquals(CommandId.of("c1"), decoded.commandId());
        }
    }

    /** The stored form of an outcome as it was built before it was written in one pass: a tree. */
    static byte[] treeEncoding(String commandId, io.quire.journal.outcome.Outcome outcome) throws IOException {
        var mapper = io.quire.journal.codec.Json.MAPPER;
        var root = mapper.createObjectNode();
        root.put("commandId", commandId);
        var typed = mapper.createObjectNode();
        typed.put("type", outcome.type().wireName);
        typed.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(outcome));
        root.set("outcome", typed);
        return mapper.writeValueAsBytes(root);
    }

    @Test
    void outcomesAreWrittenByteForByteAsTheirTreeWas() throws IOException {
        List<io.quire.journal.outcome.Outcome> outcomes = new java.util.ArrayList<>(List.of(
                new SchemaRegistered(id(5), v(2), true), new SubjectDeleted(vs(1, 2)), new BlockGranted(1001, 1000),
                new Rejected(ErrorCode.SUBJECT_NOT_FOUND, "Subject 'x' \"not\" found.\u0000\u2028é"),
                new io.quire.journal.outcome.Conflict("")));
        var kv = new io.quire.journal.view.InMemoryKv();
        var view = new io.quire.journal.view.RegistryView(kv);
        var applier = new io.quire.journal.apply.Applier();
        List<Envelope> journal = DeterminismTest.randomJournal(new java.util.Random(3));
        for (int i = 0; i < journal.size(); i++) {
            var r = applier.apply(view, io.quire.journal.model.Offset.of(i), journal.get(i));
            kv.apply(r.changes());
            outcomes.add(r.outcome());
        }
        java.util.Set<String> types = new java.util.TreeSet<>();
        for (var o : outcomes) {
            String commandId = "c-\"" + types.size() + "\u00e9";
            assertEquals(new String(treeEncoding(commandId, o), StandardCharsets.UTF_8),
                    new String(JournalCodec.encodeOutcome(CommandId.of(commandId), o), StandardCharsets.UTF_8), o.toString());
            types.add(o.type().wireName);
        }
        assertTrue(types.size() >= 8, "outcome types covered: " + types);
    }

    @Test
    void registrationsWrittenWithoutJacksonAreTheBytesJacksonWrites() throws IOException {
        List<String> commandIds = List.of(java.util.UUID.randomUUID().toString(), "c1", "", "a b/c:d~",
                "quote\"d", "back\\slash", "\u00e9t\u00e9", "tab\there", "del\u007f", "\ud83d\ude00");
        for (String commandId : commandIds) {
            for (var o : List.of(new SchemaRegistered(id(1), v(1), true), new SchemaRegistered(id(100_003), v(42), false),
                    new SchemaRegistered(SchemaId.of(Long.MAX_VALUE), Version.of(Integer.MAX_VALUE), true),
                    new SchemaRegistered(SchemaId.of(0), Version.of(-1), false))) {
                assertEquals(new String(treeEncoding(commandId, o), StandardCharsets.UTF_8),
                        new String(JournalCodec.encodeOutcome(CommandId.of(commandId), o), StandardCharsets.UTF_8), commandId + " " + o);
            }
        }
    }

    @Test
    void recordsOutsideTheCanonicalFormReadAsTheTreeReadsThem() {
        Envelope canonical = JournalCodec.decode(JournalCodec.encode(envelope(EXAMPLES.get(CommandType.DELETE_MODE))));
        String payload = new String(JournalCodec.encode(canonical), StandardCharsets.UTF_8);
        String body = payload.substring(payload.indexOf("\"payload\""), payload.length() - 1);
        String head = payload.substring(1, payload.indexOf(",\"payload\""));
        for (String variant : List.of(
                "{" + body + "," + head + "}",                        // payload before its type
                "{" + head + ",\"extra\":[1,{\"a\":2}]," + body + "}",   // a field this release does not know
                "{" + head + ",\"nodeId\":\"later\"," + body + "}")) {     // a field twice: the last one counts
            Envelope read = JournalCodec.decode(variant.getBytes(StandardCharsets.UTF_8));
            assertEquals(canonical.command(), read.command(), variant);
            assertEquals(canonical.commandId(), read.commandId(), variant);
        }
        assertEquals("later", JournalCodec.decode(("{" + head + ",\"nodeId\":\"later\"," + body + "}")
                .getBytes(StandardCharsets.UTF_8)).nodeId());
    }

    @Test
    void unreadableRecordsAreReportedNotSkipped() {
        assertThrows(CorruptRecordException.class, () -> JournalCodec.decode("{not json".getBytes(StandardCharsets.UTF_8)));
        assertThrows(CorruptRecordException.class, () -> JournalCodec.decode(
                "{\"v\":1,\"type\":\"Nope\",\"commandId\":\"c\",\"nodeId\":\"n\",\"principal\":\"p\",\"timestamp\":1,\"payload\":{}}"
                        .getBytes(StandardCharsets.UTF_8)));
        assertThrows(CorruptRecordException.class, () -> JournalCodec.decode(
                "{\"v\":99,\"type\":\"DeleteMode\",\"commandId\":\"c\",\"nodeId\":\"n\",\"principal\":\"p\",\"timestamp\":1,\"payload\":{\"subject\":\"s\"}}"
                        .getBytes(StandardCharsets.UTF_8)));
    }

    static String golden(String resource) throws IOException {
        try (InputStream in = JournalCodecGoldenTest.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing golden file " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
