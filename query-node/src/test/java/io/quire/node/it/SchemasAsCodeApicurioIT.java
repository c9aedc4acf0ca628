package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.ops.SchemasCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same commands against a real Apicurio Registry 3.3.3 (Maven Central's distribution, unpacked by
 * the build, run on the machine's JDK 21+), through its Confluent-compatible API: the folder is
 * planned, applied, planned again, edited and dumped exactly as against Quire. Apicurio has no
 * contexts, so this folder has none.
 */
class SchemasAsCodeApicurioIT {

    @TempDir
    Path dir;

    @Test
    void planApplyAndDumpAgainstApicurio() throws Exception {
        try (ApicurioProcess apicurio = ApicurioProcess.start(dir)) {
            String url = apicurio.ccompat;
            Http ap = apicurio.http;

            Path folder = Files.createDirectories(dir.resolve("schemas"));
            Files.writeString(folder.resolve("address.avsc"), SchemasAsCodeIT.ADDRESS);
            Files.writeString(folder.resolve("address.yaml"), "compatibility: BACKWARD\n");
            Files.writeString(folder.resolve("orders-value.avsc"), SchemasAsCodeIT.ORDER);
            Files.writeString(folder.resolve("orders-value.yaml"), """
                    compatibility: BACKWARD
                    references:
                      - name: com.acme.Address
                        subject: address
                        version: latest
                    """);
            Files.writeString(folder.resolve("payments-value.json"), SchemasAsCodeIT.PAYMENT);
            Files.writeString(folder.resolve("money.proto"), SchemasAsCodeIT.MONEY);
            Files.writeString(folder.resolve("invoices-value.proto"),
                    SchemasAsCodeIT.INVOICE.replace("proto/money.proto", "money.proto"));

            OperatorCommandsIT.Run first = OperatorCommandsIT.run(SchemasCommand::plan, "--registry", url, "--dir",
                    folder.toString());
            assertEquals(2, first.code(), first.output());
            OperatorCommandsIT.Run applied = OperatorCommandsIT.run(SchemasCommand::apply, "--registry", url, "--dir",
                    folder.toString());
            assertEquals(0, applied.code(), applied.output());
            String access = Files.readString(dir.resolve("apicurio.log"));
            assertTrue(access.contains("method=\"GET\" path=\"/apis/ccompat/v7/changesets\" response_code=\"404\""),
                    "apply asks for the change-set route without a body first");
            assertFalse(access.contains("method=\"POST\" path=\"/apis/ccompat/v7/changesets\""),
                    "and sends no change set to a registry without the route: it may answer before reading it");
            assertEquals("money", ap.get("/subjects/invoices-value/versions/1").json().at("/references/0/subject")
                    .asText(), ap.get("/subjects/invoices-value/versions/1").body());

            OperatorCommandsIT.Run again = OperatorCommandsIT.run(SchemasCommand::plan, "--registry", url, "--dir",
                    folder.toString());
            assertEquals(0, again.code(), "apply then plan: nothing to do\n" + again.output());

            // Apicurio's compatibility endpoint cannot parse an Avro schema with references (it answers
            // 42201 "Syntax violation"): the edits are made to the referenced record, which has none.
            Files.writeString(folder.resolve("address.avsc"), SchemasAsCodeIT.ADDRESS.replace("}]}",
                    "},{\"name\":\"city\",\"type\":\"string\",\"default\":\"\"}]}"));
            OperatorCommandsIT.Run compatible = OperatorCommandsIT.run(SchemasCommand::plan, "--registry", url,
                    "--dir", folder.toString());
            assertEquals(2, compatible.code(), compatible.output());
            assertTrue(compatible.output().contains("~ address") && compatible.output().contains("~ orders-value"),
                    "the subject that references the latest address changes with it\n" + compatible.output());
            OperatorCommandsIT.Run appliedEdit = OperatorCommandsIT.run(SchemasCommand::apply, "--registry", url,
                    "--dir", folder.toString());
            assertEquals(0, appliedEdit.code(), appliedEdit.output());
            assertEquals("[1,2]", ap.get("/subjects/address/versions").body());
            assertEquals(2, ap.get("/subjects/orders-value/versions/latest").json().at("/references/0/version")
                    .asInt());
            assertEquals(0, OperatorCommandsIT.run(SchemasCommand::plan, "--registry", url, "--dir",
                    folder.toString()).code());

            Files.writeString(folder.resolve("address.avsc"), SchemasAsCodeIT.ADDRESS.replace("}]}",
                    "},{\"name\":\"zip\",\"type\":\"string\"}]}"));
            OperatorCommandsIT.Run breaks = OperatorCommandsIT.run(SchemasCommand::plan, "--registry", url, "--dir",
                    folder.toString());
            assertEquals(1, breaks.code(), "Apicurio's BACKWARD rule refuses it\n" + breaks.output());

            Path dumped = Files.createDirectories(dir.resolve("dumped"));
            assertEquals(0, OperatorCommandsIT.run(SchemasCommand::dump, "--registry", url, "--dir",
                    dumped.toString()).code());
            OperatorCommandsIT.Run ofDump = OperatorCommandsIT.run(SchemasCommand::plan, "--registry", url, "--dir",
                    dumped.toString());
            assertEquals(0, ofDump.code(), "dump then plan: nothing to do\n" + ofDump.output());
        }
    }
}
