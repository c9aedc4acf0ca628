package io.quire.node.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.node.schema.AvroSupport;
import io.quire.node.schema.JsonSchemaSupport;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.ProtobufSupport;
import io.quire.journal.view.StoredSchema;
import java.util.HashSet;
import java.util.stream.Collectors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A schema's search terms, read with each language's own parser. */
class SchemaTermsTest {

    /**
     * The terms of a parsed schema with their paths, as a search reads them again from the stored
     * text; checked against the keys the command carries, which must be the same.
     */
    static List<String> lines(ParsedSchema<?> parsed) {
        List<SearchTerm> stored = SchemaTerms.ofStored(new StoredSchema(parsed.canonical(), parsed.type(),
                parsed.references()));
        assertEquals(new HashSet<>(SearchTerm.decodeAll(SchemaTerms.of(parsed))),
                stored.stream().map(t -> new SearchTerm.Key(t.kind(), t.key())).collect(Collectors.toSet()),
                "the keys filed at registration are those found again in the stored text");
        return stored.stream().map(t -> t.kind().label() + " " + t.term() + " @" + t.path()).toList();
    }

    @Test
    void avroNamesFieldsDocsAndTagsWithTheirPaths() throws Exception {
        String order = """
                {"type":"record","name":"Order","namespace":"com.acme","doc":"An order, as placed",
                 "fields":[{"name":"customer_id","type":"string","confluent:tags":["PII"]},
                           {"name":"status","type":{"type":"enum","name":"Status","symbols":["OPEN","PAID"]}},
                           {"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line",
                            "namespace":"com.acme.lines","fields":[{"name":"sku","type":"string","doc":"stock unit"}]}}}]}
                """;
        List<String> t = lines(new AvroSupport().parse(order, List.of(), Map.of()));
        for (String expected : List.of("record Order @com.acme.Order", "namespace com.acme @com.acme.Order",
                "doc order @com.acme.Order", "doc placed @com.acme.Order",
                "field customer_id @com.acme.Order.customer_id", "tag PII @com.acme.Order.customer_id",
                "record Status @com.acme.Status", "field OPEN @com.acme.Status.OPEN",
                "record Line @com.acme.lines.Line", "field sku @com.acme.lines.Line.sku", "doc stock @com.acme.lines.Line.sku")) {
            assertTrue(t.contains(expected), expected + " in " + t);
        }
        assertFalse(t.stream().anyMatch(l -> l.startsWith("doc as ") || l.startsWith("doc An ")),
                "no word under three letters: " + t);
    }

    @Test
    void aTypeDefinedInAReferenceIsTheReferencesNotThisSchemas() throws Exception {
        AvroSupport avro = new AvroSupport();
        String address = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"street\",\"type\":\"string\"}]}";
        String customer = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"home\",\"type\":\"com.acme.Address\"}]}";
        List<String> t = lines(avro.parse(customer, List.of(new SchemaReference("com.acme.Address",
                Subject.of("address"), Version.of(1))), Map.of("com.acme.Address", address)));
        assertTrue(t.contains("field home @com.acme.Customer.home"), t.toString());
        assertFalse(t.stream().anyMatch(l -> l.contains("street") || l.contains("record Address")), t.toString());
    }

    @Test
    void jsonSchemaTitlesPropertiesDescriptionsAndTags() throws Exception {
        String customer = """
                {"$schema":"http://json-schema.org/draft-07/schema#","title":"Customer","type":"object",
                 "properties":{"customerId":{"type":"string","description":"The customer's identifier",
                                              "confluent:tags":["PII"]},
                               "address":{"type":"object","properties":{"zip":{"type":"string"}}}},
                 "definitions":{"Money":{"type":"object","properties":{"cents":{"type":"integer"}}}}}
                """;
        List<String> t = lines(new JsonSchemaSupport().parse(customer, List.of(), Map.of()));
        for (String expected : List.of("record Customer @Customer", "field customerId @Customer.customerId",
                "doc identifier @Customer.customerId", "tag PII @Customer.customerId", "field zip @Customer.address.zip",
                "record Money @Money", "field cents @Money.cents")) {
            assertTrue(t.contains(expected), expected + " in " + t);
        }
    }

    @Test
    void protobufPackagesMessagesFieldsCommentsAndFieldMetaTags() throws Exception {
        String payment = """
                syntax = "proto3";
                package acme.pay.v1;
                import "confluent/meta.proto";
                // A payment of an order
                message Payment {
                  string customer_id = 1 [(confluent.field_meta) = { tags: ["PII", "GDPR"] }];
                  Kind kind = 2;
                  enum Kind { KIND_UNSPECIFIED = 0; CARD = 1; }
                  message Card { string last4 = 1; }
                }
                """;
        List<String> t = lines(new ProtobufSupport().parse(payment, List.of(), Map.of()));
        for (String expected : List.of("namespace acme.pay.v1 @acme.pay.v1", "record Payment @acme.pay.v1.Payment",
                "doc payment @acme.pay.v1.Payment", "field customer_id @acme.pay.v1.Payment.customer_id",
                "tag PII @acme.pay.v1.Payment.customer_id", "tag GDPR @acme.pay.v1.Payment.customer_id",
                "record Kind @acme.pay.v1.Payment.Kind", "field CARD @acme.pay.v1.Payment.Kind.CARD",
                "field last4 @acme.pay.v1.Payment.Card.last4")) {
            assertTrue(t.contains(expected), expected + " in " + t);
        }
        assertEquals(t.size(), t.stream().distinct().count(), "each term once: " + t);
    }
}
