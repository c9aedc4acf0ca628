package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.ops.SchemasCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code quire.jar plan / apply / dump} against a real node: a folder of Avro, JSON Schema and
 * Protobuf schemas with references (a Protobuf import of a file of the folder included) and a
 * named context, planned, applied, planned again, edited, dumped and planned from the dump.
 */
class SchemasAsCodeIT {

    static final String ADDRESS = """
            {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"street","type":"string"}]}
            """;
    static final String ORDER = """
            {"type":"record","name":"Order","namespace":"com.acme","fields":[
              {"name":"id","type":"string"},
              {"name":"to","type":["null","com.acme.Address"],"default":null}]}
            """;
    static final String ORDER_REFORMATTED = """
            {
                "namespace" : "com.acme",
                "type" : "record",
                "name" : "Order",
                "fields" : [
                    { "name" : "id", "type" : "string" },
                    { "name" : "to", "type" : [ "null", "com.acme.Address" ], "default" : null }
                ]
            }
            """;
    static final String ORDER_V2 = """
            {"type":"record","name":"Order","namespace":"com.acme","fields":[
              {"name":"id","type":"string"},
              {"name":"to","type":["null","com.acme.Address"],"default":null},
              {"name":"note","type":"string","default":""}]}
            """;
    static final String ORDER_BREAKS = """
            {"type":"record","name":"Order","namespace":"com.acme","fields":[
              {"name":"id","type":"string"},
              {"name":"to","type":["null","com.acme.Address"],"default":null},
              {"name":"customer","type":"string"}]}
            """;
    static final String PAYMENT = """
            {"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
             "properties":{"amount":{"type":"number"}},"additionalProperties":false}
            """;
    static final String MONEY = """
            syntax = "proto3";
            package acme;
            message Money { int64 cents = 1; string currency = 2; }
            """;
    static final String INVOICE = """
            syntax = "proto3";
            package acme;
            import "proto/money.proto";
            message Invoice { string id = 1; acme.Money total = 2; }
            """;

    static OperatorCommandsIT.Run run(OperatorCommandsIT.Command command, String... args) throws Exception {
        return OperatorCommandsIT.run(command, args);
    }

    @Test
    void planApplyDumpWithReferencesAndContextsAndNoFalseDrift() throws Exception {
        Path folder = Files.createTempDirectory("quire-schemas");
        Files.createDirectories(folder.resolve("common"));
        Files.createDirectories(folder.resolve("proto"));
        Files.createDirectories(folder.resolve("contexts/eu"));
        Files.writeString(folder.resolve("common/address.avsc"), ADDRESS);
        Files.writeString(folder.resolve("orders-value.avsc"), ORDER);
        Files.writeString(folder.resolve("orders-value.yaml"), """
                compatibility: BACKWARD
                references:
                  - name: com.acme.Address
                    subject: common/address
                    version: latest
                """);
        Files.writeString(folder.resolve("contexts/eu/payments-value.json"), PAYMENT);
        Files.writeString(folder.resolve("contexts/eu/payments-value.yaml"), "compatibility: FULL\n");
        Files.writeString(folder.resolve("proto/money.proto"), MONEY);
        Files.writeString(folder.resolve("invoices-value.proto"), INVOICE);

        try (QuireNode node = Nodes.start(Nodes.config("schemas-as-code-it",
                Files.createTempDirectory("quire-sac"), "sac-node"))) {
            Http http = new Http(node.httpPort());
            String url = "http://127.0.0.1:" + node.httpPort();

            OperatorCommandsIT.Run first = run(SchemasCommand::plan, "--registry", url, "--dir", folder.toString());
            assertEquals(2, first.code(), first.output());
            assertTrue(first.output().contains("+ orders-value"), first.output());
            assertTrue(first.output().contains("+ :.eu:payments-value"), first.output());
            assertTrue(first.output().contains("+ invoices-value"), first.output());
            assertTrue(first.output().contains("7 to change"), first.output()); // five subjects, two levels
            assertEquals(0, http.get("/subjects").json().size(), "a plan changes nothing");

            OperatorCommandsIT.Run applied = run(SchemasCommand::apply, "--registry", url, "--dir", folder.toString(),
                    "--change-id", "pr-42", "--message", "orders, payments and invoices");
            assertEquals(0, applied.code(), applied.output());
            assertTrue(applied.output().contains("applied 7 change(s) as change set pr-42"), applied.output());
            var trail = http.get("/audit?subject=orders-value").json();
            assertEquals(2, trail.size(), trail.toString()); // its level and its first version
            for (var e : trail) {
                assertEquals("pr-42", e.path("changeId").asText(), trail.toString());
                assertEquals("orders, payments and invoices", e.path("message").asText());
            }
            assertEquals("RegisterSchema", trail.get(1).path("command").asText());
            assertEquals(trail.get(0).path("offset").asLong(), http.get("/audit?subject=proto/money").json().get(0)
                    .path("offset").asLong(), "the whole folder is one journal record");
            assertEquals("[\":.eu:payments-value\",\"common/address\",\"invoices-value\",\"orders-value\",\"proto/money\"]",
                    http.get("/subjects").body());
            assertEquals("proto/money", http.get("/subjects/invoices-value/versions/1").json()
                    .at("/references/0/subject").asText(), "the import became a reference by itself");
            assertEquals("FULL", http.get("/config/:.eu:payments-value?defaultToGlobal=false").json()
                    .path("compatibilityLevel").asText());

            OperatorCommandsIT.Run again = run(SchemasCommand::plan, "--registry", url, "--dir", folder.toString());
            assertEquals(0, again.code(), "apply then plan: nothing to do\n" + again.output());

            Files.writeString(folder.resolve("orders-value.avsc"), ORDER_REFORMATTED);
            OperatorCommandsIT.Run reformatted = run(SchemasCommand::plan, "--registry", url, "--dir",
                    folder.toString());
            assertEquals(0, reformatted.code(), "whitespace and key order are no change\n" + reformatted.output());

            Files.writeString(folder.resolve("orders-value.avsc"), ORDER_V2);
            OperatorCommandsIT.Run compatible = run(SchemasCommand::plan, "--registry", url, "--dir",
                    folder.toString());
            assertEquals(2, compatible.code(), compatible.output());
            assertTrue(compatible.output().contains("~ orders-value") && compatible.output().contains("1 to change"),
                    compatible.output());
            Path saved = folder.resolveSibling(folder.getFileName() + "-plan.json");
            run(SchemasCommand::plan, "--registry", url, "--dir", folder.toString(), "--out", saved.toString());
            assertEquals(0, run(SchemasCommand::apply, "--registry", url, "--plan", saved.toString()).code());
            assertEquals("[1,2]", http.get("/subjects/orders-value/versions").body(), "one new version");

            Files.writeString(folder.resolve("orders-value.avsc"), ORDER_BREAKS);
            OperatorCommandsIT.Run breaks = run(SchemasCommand::plan, "--registry", url, "--dir", folder.toString());
            assertEquals(1, breaks.code(), breaks.output());
            assertTrue(breaks.output().contains("! orders-value") && breaks.output().contains("customer"),
                    "the registry's message names the field\n" + breaks.output());
            assertEquals(1, run(SchemasCommand::apply, "--registry", url, "--dir", folder.toString()).code());
            assertEquals("[1,2]", http.get("/subjects/orders-value/versions").body(), "nothing applied");

            // a saved plan applied after the registry moved is refused
            Files.writeString(folder.resolve("orders-value.avsc"), ORDER_V2.replace("\"note\"", "\"memo\""));
            run(SchemasCommand::plan, "--registry", url, "--dir", folder.toString(), "--out", saved.toString());
            String elsewhere = Http.JSON.writeValueAsString(java.util.Map.of("schema", ORDER_V2.replace(
                    "\"default\":\"\"", "\"default\":\"-\""), "references", java.util.List.of(java.util.Map.of(
                    "name", "com.acme.Address", "subject", "common/address", "version", 1))));
            Http.Response byHand = http.post("/subjects/orders-value/versions", elsewhere);
            assertEquals(200, byHand.status(), byHand.body()); // a version registered outside the folder
            OperatorCommandsIT.Run stale = run(SchemasCommand::apply, "--registry", url, "--plan", saved.toString());
            assertEquals(1, stale.code(), stale.output());
            assertTrue(stale.output().contains("moved since the plan"), stale.output());

            Path dumped = Files.createTempDirectory("quire-dump");
            OperatorCommandsIT.Run dump = run(SchemasCommand::dump, "--registry", url, "--dir", dumped.toString());
            assertEquals(0, dump.code(), dump.output());
            assertTrue(Files.isRegularFile(dumped.resolve("contexts/eu/payments-value.json")));
            assertTrue(Files.readString(dumped.resolve("orders-value.yaml")).contains("common/address"));
            OperatorCommandsIT.Run ofDump = run(SchemasCommand::plan, "--registry", url, "--dir", dumped.toString());
            assertEquals(0, ofDump.code(), "dump then plan: nothing to do\n" + ofDump.output());

            Files.delete(dumped.resolve("invoices-value.proto"));
            OperatorCommandsIT.Run kept = run(SchemasCommand::plan, "--registry", url, "--dir", dumped.toString());
            assertEquals(0, kept.code(), kept.output());
            assertTrue(kept.output().contains("1 not in the folder"), kept.output());
            OperatorCommandsIT.Run deletes = run(SchemasCommand::apply, "--registry", url, "--dir", dumped.toString(),
                    "--allow-deletes", "true");
            assertEquals(0, deletes.code(), deletes.output());
            assertEquals(404, http.get("/subjects/invoices-value/versions").status(), "soft-deleted");
        }
    }

    static String record(String name, String extraField) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}"
                + (extraField == null ? "" : ",{\"name\":\"" + extraField + "\",\"type\":\"string\"}") + "]}";
    }

    static Map<String, Object> register(String subject, String schema) {
        return Map.of("subject", subject, "register", Map.of("schema", schema));
    }

    /**
     * {@code POST /changesets}: twenty subjects whose fifteenth is incompatible land nothing; the
     * same twenty with the fifteenth fixed land as one record, a step seeing the version an earlier
     * one makes; a set planned against versions that moved is refused with 40920.
     */
    @Test
    void aChangeSetOfTwentySubjectsWhoseFifteenthIsRefusedLandsNothing() throws Exception {
        try (QuireNode node = Nodes.start(Nodes.config("change-sets-it", Files.createTempDirectory("quire-cs"),
                "cs-node"))) {
            Http http = new Http(node.httpPort());
            assertEquals(200, http.post("/subjects/s15/versions", Http.JSON.writeValueAsString(
                    Map.of("schema", record("S15", null)))).status());
            long before = http.get("/admin/position").json().path("offset").asLong();

            List<Map<String, Object>> steps = new ArrayList<>();
            for (int i = 1; i <= 20; i++) {
                // s15 gains a field without a default: BACKWARD refuses it
                steps.add(register("s" + i, record("S" + i, i == 15 ? "added" : null)));
            }
            Http.Response refused = http.post("/changesets", Http.JSON.writeValueAsString(Map.of("id", "cs-1",
                    "steps", steps)));
            assertEquals(409, refused.status(), refused.body());
            assertEquals(409, refused.json().path("error_code").asInt());
            assertTrue(refused.json().path("message").asText().startsWith("step 15 of 20 (subject s15): "),
                    refused.body());
            assertEquals("[\"s15\"]", http.get("/subjects").body(), "nothing of the set landed");
            assertEquals(before, http.get("/admin/position").json().path("offset").asLong(), "nothing journaled");

            steps.set(14, register("s15", record("S15", null))); // the version s15 has: unchanged
            steps.add(Map.of("subject", "s21", "register", Map.of("schema", "{\"type\":\"record\",\"name\":\"T\","
                    + "\"fields\":[{\"name\":\"s\",\"type\":\"S1\"}]}", "references", List.of(Map.of("name", "S1",
                    "subject", "s1", "version", -1)))));
            Http.Response applied = http.post("/changesets", Http.JSON.writeValueAsString(Map.of("id", "cs-2",
                    "message", "twenty-one subjects", "steps", steps, "expect", List.of(Map.of("subject", "s15",
                            "version", 1), Map.of("subject", "s1")))));
            assertEquals(200, applied.status(), applied.body());
            assertEquals(before + 1, http.get("/admin/position").json().path("offset").asLong(), "one record");
            assertEquals(21, applied.json().path("steps").size());
            assertEquals("unchanged", applied.json().at("/steps/14/result").asText());
            assertEquals("registered", applied.json().at("/steps/20/result").asText());
            assertEquals(1, http.get("/subjects/s21/versions/1").json().at("/references/0/version").asInt(),
                    "latest: the version the first step made");
            assertEquals(21, http.get("/subjects").json().size());

            Http.Response stale = http.post("/changesets", Http.JSON.writeValueAsString(Map.of("steps",
                    List.of(register("s1", record("S1", null).replace("]}", ",{\"name\":\"n\",\"type\":\"int\","
                            + "\"default\":0}]}"))), "expect", List.of(Map.of("subject", "s1")))));
            assertEquals(409, stale.status(), stale.body());
            assertEquals(40920, stale.json().path("error_code").asInt());
            assertTrue(stale.json().path("message").asText().contains("s1 (planned at no version, now version 1)"),
                    stale.body());
            assertEquals("[1]", http.get("/subjects/s1/versions").body());
        }
    }
}
