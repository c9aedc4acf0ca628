package io.quire.client.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.client.plan.DesiredSubject.DesiredReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The folder format read and written without a registry: names, contexts, settings, imports, order. */
class SchemaFolderTest {

    @TempDir
    Path dir;

    void write(String path, String text) throws IOException {
        Path f = dir.resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }

    Map<String, DesiredSubject> read() throws IOException {
        return SchemaFolder.read(dir).stream().collect(Collectors.toMap(DesiredSubject::subject, d -> d));
    }

    @Test
    void subjectsAreNamedByTheirPathAndContextsByTheirFolder() throws IOException {
        write("orders-value.avsc", "{\"type\":\"string\"}\n\n");
        write("common/address.avsc", "{\"type\":\"string\"}");
        write("contexts/eu/payments-value.json", "{\"type\":\"object\"}");
        write("renamed.avsc", "{\"type\":\"string\"}");
        write("renamed.yaml", "subject: \"legacy.Orders-value\"\ncompatibility: FULL\nnormalize: true\n");
        write(".git/ignored.avsc", "{}");
        write("README.md", "not a schema");
        Map<String, DesiredSubject> got = read();
        assertEquals(List.of(":.eu:payments-value", "common/address", "legacy.Orders-value", "orders-value"),
                got.keySet().stream().sorted().toList());
        assertEquals("{\"type\":\"string\"}", got.get("orders-value").schema(), "trailing blank lines are not content");
        assertEquals("JSON", got.get(":.eu:payments-value").schemaType());
        assertEquals("FULL", got.get("legacy.Orders-value").compatibility());
        assertTrue(got.get("legacy.Orders-value").normalized());
    }

    @Test
    void aProtobufImportOfAFolderFileIsAReferenceToItsSubject() throws IOException {
        write("proto/money.proto", "syntax = \"proto3\";\npackage acme;\nmessage Money { int64 cents = 1; }\n");
        write("invoices-value.proto", "syntax = \"proto3\";\npackage acme;\nimport \"proto/money.proto\";\n"
                + "import \"google/protobuf/timestamp.proto\";\nmessage Invoice { acme.Money total = 1; }\n");
        assertEquals(List.of(new DesiredReference("proto/money.proto", "proto/money", "latest")),
                read().get("invoices-value").references(), "a file the folder does not hold is left to the registry");
    }

    @Test
    void aTypoInASettingsFileOrASubjectNamedTwiceIsAnErrorNamingTheFile() throws IOException {
        write("a.avsc", "{\"type\":\"string\"}");
        write("a.yaml", "compatibilty: FULL\n");
        IOException typo = assertThrows(IOException.class, this::read);
        assertTrue(typo.getMessage().contains("a.yaml") && typo.getMessage().contains("compatibilty"),
                typo.getMessage());
        Files.delete(dir.resolve("a.yaml"));
        write("b.avsc", "{\"type\":\"string\"}");
        write("b.yaml", "subject: a\n");
        IOException twice = assertThrows(IOException.class, this::read);
        assertTrue(twice.getMessage().contains("named twice"), twice.getMessage());
    }

    @Test
    void aDumpReadsBackAsItWasWritten() throws IOException {
        List<DesiredSubject> written = List.of(
                new DesiredSubject(":.eu:orders-value", "AVRO", "{\"type\":\"string\"}",
                        List.of(new DesiredReference("com.acme.Address", "common/address", "3")), "BACKWARD", null,
                        null, null, "x"),
                new DesiredSubject("proto/money", "PROTOBUF", "syntax = \"proto3\";\nmessage M {}", List.of(),
                        null, null, null, null, "y"));
        SchemaFolder.write(dir, written);
        Map<String, DesiredSubject> back = read();
        assertEquals(written.get(0).references(), back.get(":.eu:orders-value").references());
        assertEquals("BACKWARD", back.get(":.eu:orders-value").compatibility());
        assertEquals(written.get(1).schema(), back.get("proto/money").schema());
        assertTrue(Files.isRegularFile(dir.resolve("contexts/eu/orders-value.avsc")));
        assertTrue(Files.notExists(dir.resolve("proto/money.yaml")), "no settings file where there are none");
    }

    @Test
    void referencedSubjectsComeFirstAndACircleIsRefused() throws IOException {
        DesiredSubject a = subject("a", "b");
        DesiredSubject b = subject("b", "c");
        DesiredSubject c = subject("c", null);
        assertEquals(List.of("c", "b", "a"), Planner.referencedFirst(List.of(a, b, c)).stream()
                .map(DesiredSubject::subject).toList());
        IOException circle = assertThrows(IOException.class, () -> Planner.referencedFirst(List.of(subject("x", "y"),
                subject("y", "x"))));
        assertTrue(circle.getMessage().contains("x -> y -> x"), circle.getMessage());
    }

    private static DesiredSubject subject(String name, String references) {
        return new DesiredSubject(name, "AVRO", "{\"type\":\"string\"}", references == null ? List.of()
                : List.of(new DesiredReference(references, references, "latest")), null, null, null, null, name);
    }
}
