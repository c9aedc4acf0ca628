package io.quire.journal.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quire.journal.model.Metadata;
import io.quire.journal.model.Rule;
import io.quire.journal.model.RuleKind;
import io.quire.journal.model.RuleMode;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one-pass encoding of a stored schema against the tree it replaced: the same bytes, always. */
class StoredSchemaEncodingTest {

    private static final String[] TEXTS = {
        "{\"type\":\"string\"}",
        "{\"type\":\"record\",\"name\":\"A\",\"doc\":\"tab\\there \\\"quoted\\\" \\\\ back\",\"fields\":[]}",
        "syntax = \"proto3\";\nmessage M { string a = 1; }\n",
        "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"description\":\"\u00e9\u00e8 \u2603 \ud83d\ude00\"}",
        "control \u0001\u001f and </script> and \u2028",
        "",
    };

    @Test
    void theOnePassEncodingIsTheTreeEncodingByteForByte() {
        Random random = new Random(20261201);
        for (int i = 0; i < 2_000; i++) {
            StoredSchema s = randomSchema(random);
            assertArrayEquals(s.encodeAsTree(), s.encode(), () -> "for " + s);
            assertEquals(s, StoredSchema.decode(s.encode()));
        }
    }

    @Test
    void theStreamingReadIsTheTreeReadForWhatTheEncoderWrites() {
        Random random = new Random(20261203);
        for (int i = 0; i < 2_000; i++) {
            StoredSchema s = randomSchema(random);
            byte[] bytes = s.encode();
            StoredSchema streamed = StoredSchema.decodeStreaming(bytes);
            assertNotNull(streamed, () -> "the encoder's own form is read in one pass: " + new String(bytes, UTF_8));
            assertEquals(StoredSchema.decodeTree(bytes), streamed);
        }
    }

    @Test
    void anyOtherFormIsReadAsTheTreeReadsItOrRefusedAlike() {
        String[] forms = {
            // another order, an unknown field, a field twice, nulls, a version as text, a reference with more
            "{\"guid\":\"g\",\"schemaType\":\"JSON\",\"schema\":\"{}\"}",
            "{\"schema\":\"{}\",\"extra\":1}",
            "{\"schema\":\"first\",\"schema\":\"second\"}",
            "{\"schema\":\"{}\",\"metadata\":null,\"ruleSet\":null}",
            "{\"schema\":\"{}\",\"references\":[{\"name\":\"n\",\"subject\":\"s\",\"version\":\"2\"}]}",
            "{\"schema\":\"{}\",\"references\":[{\"name\":\"n\",\"subject\":\"s\",\"version\":2,\"x\":0}]}",
            "{\"schema\":\"{}\",\"references\":[]}",
            "{\"schema\":42}",
            "{\"schema\":\"{}\"} trailing",
            "{\"schemaType\":\"NOPE\",\"schema\":\"{}\"}",
            "{\"schema\":\"{}\",\"metadata\":{\"properties\":{\"a\":\"b\"}}}",
            "{\"schema\":\"{}\",\"metadata\":{\"unknown\":1}}",
            "{\"references\":[]}",
            "[1,2]",
            "not json",
            "",
        };
        for (String form : forms) {
            byte[] bytes = form.getBytes(UTF_8);
            StoredSchema tree;
            try {
                tree = StoredSchema.decodeTree(bytes);
            } catch (io.quire.journal.codec.CorruptRecordException e) {
                assertThrows(io.quire.journal.codec.CorruptRecordException.class, () -> StoredSchema.decode(bytes), form);
                continue;
            }
            assertEquals(tree, StoredSchema.decode(bytes), form);
        }
        assertEquals("second", StoredSchema.decode("{\"schema\":\"first\",\"schema\":\"second\"}".getBytes(UTF_8))
                .schema());
    }

    private static StoredSchema randomSchema(Random random) {
        String text = TEXTS[random.nextInt(TEXTS.length)] + (random.nextBoolean() ? "" : " " + random.nextInt());
        SchemaType type = SchemaType.values()[random.nextInt(SchemaType.values().length)];
        List<SchemaReference> refs = new ArrayList<>();
        for (int r = random.nextInt(3); r > 0; r--) {
            refs.add(new SchemaReference("ref-" + r + "\u00fc", Subject.of(r == 1 ? ":.ctx:dep" : "dep-" + r),
                    Version.of(1 + random.nextInt(1000))));
        }
        Metadata metadata = random.nextInt(3) == 0 ? null : Metadata.of(
                Map.of("Rec.field", List.of("PII", "t\u00e4g")), Map.of("owner", "team \"a\"", "n", "1"),
                random.nextBoolean() ? Set.of("secret") : Set.of());
        RuleSet rules = random.nextInt(3) == 0 ? null : new RuleSet(
                List.of(new Rule("up", "doc \u00e9", RuleKind.TRANSFORM, RuleMode.UPGRADE, "JSONATA", Set.of(),
                        Map.of(), "$merge([$, {'x': 1}])", null, null, false)),
                random.nextBoolean() ? List.of() : List.of(new Rule("ssn", null, RuleKind.CONDITION, RuleMode.WRITE,
                        "CEL", Set.of("PII"), Map.of("k", "v"), "message.ssn.size() == 9", "NONE", "DLQ", true)),
                List.of());
        return new StoredSchema(text, type, refs, metadata, rules);
    }
}
