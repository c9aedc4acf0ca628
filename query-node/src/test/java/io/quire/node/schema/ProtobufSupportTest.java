package io.quire.node.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Protobuf parsing, imports, normalisation and the serialized (FileDescriptorProto) form. */
class ProtobufSupportTest {

    final ProtobufSupport proto = new ProtobufSupport();

    static final String ORDER = """
            syntax = "proto3";
            package shop;
            import "google/protobuf/timestamp.proto";
            import "customer.proto";
            message Order {
              string id = 1;
              repeated string tags = 2;
              map<string, int32> counts = 3;
              Customer customer = 4;
              google.protobuf.Timestamp at = 5;
              optional int64 qty = 6;
              Status status = 7;
              Line first_line = 8;
              oneof payment {
                string card = 9;
                string iban = 10;
              }
              message Line {
                int32 qty = 1;
              }
              enum Status {
                UNKNOWN = 0;
                OK = 1;
              }
            }
            """;
    static final String CUSTOMER = "syntax = \"proto3\";\npackage shop;\nmessage Customer {\n  string name = 1;\n}\n";

    ParsedSchema<?> parse(String text) {
        return proto.parse(text, List.of(new SchemaReference("customer.proto", Subject.of("customer"), Version.of(1))),
                Map.of("customer.proto", CUSTOMER));
    }

    @Test
    void importsMustBeWellKnownOrReferences() {
        assertThrows(InvalidSchemaException.class, () -> proto.parse(ORDER, List.of(), Map.of()));
        assertTrue(parse(ORDER).canonical().startsWith("syntax = \"proto3\";"), "no banner comment first");
        assertTrue(parse(ORDER).canonical().contains("message Order"));
    }

    static final String MONEY = """
            syntax = "proto3";
            package shop;
            import "confluent/meta.proto";
            import "confluent/type/decimal.proto";
            import "google/type/date.proto";
            message Payment {
              confluent.type.Decimal amount = 1 [(confluent.field_meta) = { tags: ["PII"], params: [{key: "precision", value: "10"}] }];
              google.type.Date due = 2;
            }
            """;

    @Test
    void confluentsBuiltInFilesAreImportableWithoutReferences() throws Exception {
        ParsedSchema<?> parsed = proto.parse(MONEY, List.of(), Map.of());
        assertTrue(parsed.canonical().contains("confluent.field_meta"), parsed.canonical());
        FileDescriptorProto d = FileDescriptorProto.parseFrom(Base64.getDecoder().decode(
                ProtoToDescriptor.serialized(parsed.canonical(), Map.of())));
        assertEquals(".confluent.type.Decimal", d.getMessageType(0).getField(0).getTypeName(), "a message type");
        assertEquals(".google.type.Date", d.getMessageType(0).getField(1).getTypeName());
        for (String path : ProtobufSupport.BUILT_IN) {
            assertTrue(ProtobufSupport.wellKnown(path), path + " is on the classpath");
        }
        assertThrows(InvalidSchemaException.class, () -> proto.parse(MONEY.replace("google/type/date.proto",
                "google/type/localized_text.proto"), List.of(), Map.of()), "not one Confluent ships");
    }

    @Test
    void confluentsFieldMetadataSurvivesBothFormsOfASchema() throws Exception {
        ParsedSchema<?> parsed = proto.parse(MONEY, List.of(), Map.of());
        FileDescriptorProto d = FileDescriptorProto.parseFrom(Base64.getDecoder().decode(
                ProtoToDescriptor.serialized(parsed.canonical(), Map.of())));
        var unknown = d.getMessageType(0).getField(0).getOptions().getUnknownFields();
        assertTrue(unknown.hasField(ConfluentMeta.EXTENSION), "the tags travel as extension 1088 of FieldOptions");
        String text = DescriptorToProto.toProto(d);
        assertTrue(text.contains("[(confluent.field_meta) = { params: [{ key: \"precision\", value: \"10\" }], "
                + "tags: [\"PII\"] }]"), text);
        ParsedSchema<?> back = proto.parse(text, List.of(), Map.of());
        FileDescriptorProto again = FileDescriptorProto.parseFrom(Base64.getDecoder().decode(
                ProtoToDescriptor.serialized(back.canonical(), Map.of())));
        assertEquals(d.getMessageType(0).getField(0).getOptions(), again.getMessageType(0).getField(0).getOptions(),
                "text -> descriptor -> text -> descriptor keeps the option byte for byte");
    }

    @Test
    void theSerializedFormRoundTripsToTheSameSchema() throws Exception {
        ParsedSchema<?> text = parse(ORDER);
        String serialized = ProtoToDescriptor.serialized(text.canonical(), Map.of("customer.proto", CUSTOMER));
        FileDescriptorProto d = FileDescriptorProto.parseFrom(Base64.getDecoder().decode(serialized));
        assertEquals("shop", d.getPackage());
        assertEquals(List.of("google/protobuf/timestamp.proto", "customer.proto"), d.getDependencyList());
        var order = d.getMessageType(0);
        FieldDescriptorProto customer = order.getFieldList().stream().filter(f -> f.getName().equals("customer"))
                .findFirst().orElseThrow();
        assertEquals(".shop.Customer", customer.getTypeName(), "resolved through the reference");
        FieldDescriptorProto status = order.getFieldList().stream().filter(f -> f.getName().equals("status"))
                .findFirst().orElseThrow();
        assertEquals(FieldDescriptorProto.Type.TYPE_ENUM, status.getType());
        assertEquals(".shop.Order.Status", status.getTypeName());
        FieldDescriptorProto at = order.getFieldList().stream().filter(f -> f.getName().equals("at")).findFirst()
                .orElseThrow();
        assertEquals(".google.protobuf.Timestamp", at.getTypeName());
        assertEquals("firstLine", order.getFieldList().stream().filter(f -> f.getName().equals("first_line"))
                .findFirst().orElseThrow().getJsonName());
        assertTrue(order.getNestedTypeList().stream().anyMatch(n -> n.getName().equals("CountsEntry")
                && n.getOptions().getMapEntry()));
        assertTrue(order.getFieldList().stream().anyMatch(f -> f.getName().equals("qty") && f.getProto3Optional()));

        ParsedSchema<?> back = parse(serialized);
        assertEquals(parse(back.canonical()).canonical(), back.canonical(), "a fixed point once in text form");
        assertTrue(back.canonical().contains("map<string, int32> counts = 3;"), back.canonical());
        assertTrue(back.canonical().contains("oneof payment"), back.canonical());
        assertTrue(back.canonical().contains("optional int64 qty = 6;"), back.canonical());
    }

    @Test
    void normalisingSortsImports() {
        String swapped = ORDER.replace("import \"google/protobuf/timestamp.proto\";\nimport \"customer.proto\";",
                "import \"customer.proto\";\nimport \"google/protobuf/timestamp.proto\";");
        assertEquals(proto.normalize(parse(ORDER).canonical()), proto.normalize(parse(swapped).canonical()));
    }

    @Test
    void aFileThatDefinesNoTypeIsInvalid() {
        for (String empty : List.of("////", "syntax = \"proto3\";\n", "// nothing\npackage acme;\n")) {
            InvalidSchemaException e = assertThrows(InvalidSchemaException.class, () -> proto.parse(empty, List.of(), Map.of()));
            assertTrue(e.getMessage().contains("defines no message or enum"), e.getMessage());
        }
        proto.parse("syntax = \"proto3\";\nenum Kind {\n  A = 0;\n}\n", List.of(), Map.of()); // enums alone are fine
    }
}
