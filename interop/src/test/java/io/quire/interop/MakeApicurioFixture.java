package io.quire.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Makes the committed Apicurio fixture (see {@code src/test/resources/apicurio-3.3.3/README.md}): it
 * fills a fresh Apicurio Registry with Apicurio's own serde and its v3 API, keeps the records the
 * serde wrote, and downloads the registry's export. Not a test; run by hand against a real Apicurio.
 *
 * <p>Usage: {@code MakeApicurioFixture http://localhost:8080 OUT_DIR}
 */
public final class MakeApicurioFixture {

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        String base = args[0] + "/apis/registry/v3";
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        ArrayNode records = JSON.createArrayNode();
        try (AvroKafkaSerializer<GenericRecord> ser = new AvroKafkaSerializer<>()) {
            ser.configure(Map.of("apicurio.registry.url", base, "apicurio.registry.auto-register", "true"), false);
            Schema userV1 = parse("""
                    {"type":"record","name":"User","namespace":"quire.fixture","fields":[{"name":"name","type":"string"}]}""");
            Schema userV2 = parse("""
                    {"type":"record","name":"User","namespace":"quire.fixture","fields":[{"name":"name","type":"string"},
                      {"name":"email","type":"string","default":""}]}""");
            Schema person = parse("""
                    {"type":"record","name":"Person","namespace":"quire.fixture","fields":[{"name":"name","type":"string"},
                      {"name":"home","type":{"type":"record","name":"Address","fields":[{"name":"city","type":"string"}]}}]}""");
            GenericRecord u1 = new GenericData.Record(userV1);
            u1.put("name", "ada");
            records.add(record("users", ser.serialize("users", u1), "name", "ada"));
            GenericRecord u2 = new GenericData.Record(userV2);
            u2.put("name", "grace");
            u2.put("email", "grace@example.com");
            records.add(record("users", ser.serialize("users", u2), "email", "grace@example.com"));
            GenericRecord home = new GenericData.Record(person.getField("home").schema());
            home.put("city", "Lyon");
            GenericRecord p = new GenericData.Record(person);
            p.put("name", "eve");
            p.put("home", home);
            records.add(record("people", ser.serialize("people", p), "name", "eve"));
        }
        create(base, "default", "orders-value", "JSON", """
                {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"sku":{"type":"string"}}}""");
        create(base, "default", "payments-value", "PROTOBUF", """
                syntax = "proto3";
                package quire.fixture;
                message Payment { string id = 1; double amount = 2; }
                """);
        create(base, "default", "legacy-value", "AVRO", "{\"type\":\"record\",\"name\":\"Legacy\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}");
        createVersion(base, "legacy-value", "{\"type\":\"record\",\"name\":\"Legacy\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
                + "{\"name\":\"b\",\"type\":\"int\",\"default\":0}]}");
        send("PUT", base + "/groups/default/artifacts/legacy-value/versions/2/state", "{\"state\":\"DISABLED\"}");
        send("PUT", base + "/groups/default/artifacts/users-value/versions/1/state", "{\"state\":\"DEPRECATED\"}");
        send("POST", base + "/groups/default/artifacts/users-value/rules", "{\"ruleType\":\"COMPATIBILITY\",\"config\":\"FULL\"}");
        send("POST", base + "/admin/rules", "{\"ruleType\":\"COMPATIBILITY\",\"config\":\"BACKWARD_TRANSITIVE\"}");
        send("POST", base + "/admin/rules", "{\"ruleType\":\"VALIDITY\",\"config\":\"FULL\"}");
        export(base, out.resolve("export.zip"));
        Files.writeString(out.resolve("records.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(records));

        // What the import cannot map: another group, a type Quire does not store, a version named by the user.
        create(base, "payments-team", "refunds-value", "AVRO", "{\"type\":\"record\",\"name\":\"Refund\",\"fields\":[]}");
        create(base, "default", "petstore", "OPENAPI", "{\"openapi\":\"3.0.2\",\"info\":{\"title\":\"p\",\"version\":\"1\"},\"paths\":{}}");
        ObjectNode named = artifact("named-value", "AVRO", "{\"type\":\"record\",\"name\":\"Named\",\"fields\":[]}");
        ((ObjectNode) named.get("firstVersion")).put("version", "1.0.0");
        send("POST", base + "/groups/default/artifacts", named.toString());
        export(base, out.resolve("export-unmappable.zip"));
    }

    static Schema parse(String s) {
        return new Schema.Parser().parse(s);
    }

    static ObjectNode record(String topic, byte[] bytes, String field, String value) {
        ObjectNode n = JSON.createObjectNode();
        n.put("topic", topic);
        n.put("hex", HexFormat.of().formatHex(bytes));
        n.put("field", field);
        n.put("value", value);
        return n;
    }

    static ObjectNode artifact(String id, String type, String content) {
        ObjectNode a = JSON.createObjectNode();
        a.put("artifactId", id);
        a.put("artifactType", type);
        ObjectNode c = a.putObject("firstVersion").putObject("content");
        c.put("content", content);
        c.put("contentType", type.equals("PROTOBUF") ? "application/x-protobuf" : "application/json");
        return a;
    }

    static void create(String base, String group, String id, String type, String content) throws Exception {
        send("POST", base + "/groups/" + group + "/artifacts", artifact(id, type, content).toString());
    }

    static void createVersion(String base, String id, String content) throws Exception {
        ObjectNode v = JSON.createObjectNode();
        ObjectNode c = v.putObject("content");
        c.put("content", content);
        c.put("contentType", "application/json");
        send("POST", base + "/groups/default/artifacts/" + id + "/versions", v.toString());
    }

    static void send(String method, String url, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + url + " → " + r.statusCode() + " " + r.body());
        }
    }

    static void export(String base, Path file) throws Exception {
        HttpResponse<Path> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/admin/export")).GET().build(),
                HttpResponse.BodyHandlers.ofFile(file));
        if (r.statusCode() != 200) {
            throw new IllegalStateException("export → " + r.statusCode());
        }
    }
}
