package io.quire.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The top-level fields Confluent's reserved-field check reads, in each language. */
class TopLevelFieldsTest {

    @Test
    void aRecordsFieldsAnObjectsPropertiesAndTheFirstMessagesFieldsWithItsOneofs() {
        AvroSupport avro = new AvroSupport();
        assertEquals(Set.of("id", "name"), avro.topLevelFields(avro.parse(
                "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"id\",\"type\":\"int\"},"
                        + "{\"name\":\"name\",\"type\":\"string\"}]}", List.of(), Map.of())));
        assertEquals(Set.of(), avro.topLevelFields(avro.parse("\"string\"", List.of(), Map.of())), "no record");

        JsonSchemaSupport json = new JsonSchemaSupport();
        assertEquals(Set.of("a", "b"), json.topLevelFields(json.parse(
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"object\","
                        + "\"properties\":{\"inner\":{\"type\":\"string\"}}}}}", List.of(), Map.of())),
                "nested properties are not top-level");

        ProtobufSupport proto = new ProtobufSupport(false);
        assertEquals(Set.of("id", "email", "phone"), proto.topLevelFields(proto.parse("syntax = \"proto3\";\n"
                + "message First {\n  int32 id = 1;\n  oneof contact {\n    string email = 2;\n    string phone = 3;\n"
                + "  }\n}\nmessage Second {\n  string other = 1;\n}\n", List.of(), Map.of())));
    }
}
