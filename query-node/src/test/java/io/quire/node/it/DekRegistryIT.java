package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DEK registry over real HTTP, with Confluent's paths, fields and codes: KEKs and DEKs made,
 * read, rotated, soft-deleted, undeleted and removed; the conflict a second writer of one DEK
 * gets; refusals that change nothing. The npm client's encryption runs against it in
 * ConfluentClientIT, the roles in SecurityIT.
 */
class DekRegistryIT {

    static final String KEKS = "/dek-registry/v1/keks";

    static QuireNode node;
    static Http http;

    @BeforeAll
    static void start() throws Exception {
        node = Nodes.start(Nodes.config("dek-registry-it", Files.createTempDirectory("quire-dek-it"), "dek-node"));
        http = new Http(node.httpPort());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static Http.Response ok(Http.Response r) {
        assertEquals(200, r.status(), r.body());
        return r;
    }

    @Test
    void kekAndDekLifecycleWithConfluentsCodes() {
        JsonNode kek = ok(http.post(KEKS, "{\"name\":\"life\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\","
                + "\"kmsProps\":{\"b\":\"2\",\"a\":\"1\"},\"doc\":\"test\"}")).json();
        assertEquals("local-kms", kek.get("kmsType").asText());
        assertFalse(kek.get("shared").asBoolean());
        assertFalse(kek.get("deleted").asBoolean());
        assertTrue(kek.get("ts").asLong() > 0);
        assertEquals(40971, http.post(KEKS, "{\"name\":\"life\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"x\"}")
                .errorCode(), "exists");
        assertEquals(42271, http.post(KEKS, "{\"name\":\"9life\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"x\"}")
                .errorCode(), "a bad name");
        assertEquals(42271, http.post(KEKS, "{\"name\":\"nokey\",\"kmsType\":\"local-kms\"}").errorCode());
        assertEquals(42271, http.post(KEKS, "{\"name\":\"nokey\",\"kmsType\":\"local-kms\",\"kmsKeyId\":null,"
                + "\"doc\":null}").errorCode(), "a null kmsKeyId");
        assertEquals(42271, http.post(KEKS, "{\"name\":\"nokey\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"\"}")
                .errorCode(), "an empty kmsKeyId");
        assertEquals(42271, http.post(KEKS, "{\"name\":\"nokey\",\"kmsKeyId\":\"k\"}").errorCode(), "no kmsType");
        assertEquals(404, http.get(KEKS + "/nokey").status(), "no refused create stored a KEK");
        JsonNode undocumented = ok(http.post(KEKS, "{\"name\":\"nodoc\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"k\","
                + "\"kmsProps\":{},\"doc\":null}")).json();
        assertTrue(undocumented.path("doc").isMissingNode() || undocumented.path("doc").isNull(),
                "a null doc is valid (Confluent checks only name, kmsKeyId and kmsType): " + undocumented);
        assertEquals("updated", ok(http.put(KEKS + "/life", "{\"doc\":\"updated\"}")).json().get("doc").asText());
        assertEquals("mykey", ok(http.get(KEKS + "/life")).json().get("kmsKeyId").asText());
        assertEquals(40470, http.get(KEKS + "/nope").errorCode());

        long before = http.get("/admin/position").json().get("offset").asLong();
        JsonNode dek = ok(http.post(KEKS + "/life/deks/life-value", "{\"encryptedKeyMaterial\":\"d3JhcHBlZA==\"}")).json();
        assertEquals(1, dek.get("version").asInt(), "version 1 by default");
        assertEquals("AES256_GCM", dek.get("algorithm").asText(), "the default algorithm");
        assertEquals("life", dek.get("kekName").asText());
        assertFalse(dek.has("keyMaterial"), "never material in clear");
        Http.Response again = http.post(KEKS + "/life/deks", "{\"subject\":\"life-value\",\"version\":1,"
                + "\"encryptedKeyMaterial\":\"b3RoZXI=\"}");
        assertEquals(409, again.status());
        assertEquals(40971, again.errorCode(), "the second writer is told, and reads the first key");
        assertFalse(again.body().contains("b3RoZXI="), "no key material in an error");
        assertEquals("d3JhcHBlZA==", ok(http.get(KEKS + "/life/deks/life-value")).json().get("encryptedKeyMaterial")
                .asText());
        ok(http.post(KEKS + "/life/deks/life-value", "{\"version\":2,\"encryptedKeyMaterial\":\"cm90YXRlZA==\"}"));
        assertEquals("[1,2]", ok(http.get(KEKS + "/life/deks/life-value/versions")).body());
        assertEquals(2, ok(http.get(KEKS + "/life/deks/life-value/versions/-1")).json().get("version").asInt(),
                "-1 is the latest, as rotating clients ask");
        assertEquals(2, ok(http.get(KEKS + "/life/deks/life-value/versions/latest")).json().get("version").asInt());
        assertEquals(40470, http.get(KEKS + "/life/deks/life-value/versions/1?algorithm=AES256_SIV").errorCode());
        assertEquals(42271, http.get(KEKS + "/life/deks/life-value/versions/1?algorithm=ROT13").errorCode());
        assertEquals(42202, http.get(KEKS + "/life/deks/life-value/versions/x").errorCode());
        assertEquals("[\"life-value\"]", ok(http.get(KEKS + "/life/deks")).body());
        assertTrue(ok(http.get(KEKS)).body().contains("\"life\""));
        assertEquals("[]", ok(http.get(KEKS + "?offset=100&limit=5")).body(), "paged");

        assertEquals(42272, http.delete(KEKS + "/life").errorCode(), "a KEK stays while DEKs use it");
        assertEquals(40471, http.delete(KEKS + "/life/deks/life-value?permanent=true").errorCode());
        assertEquals(204, http.delete(KEKS + "/life/deks/life-value/versions/2").status());
        assertEquals("[1]", ok(http.get(KEKS + "/life/deks/life-value/versions")).body());
        assertEquals("[1,2]", ok(http.get(KEKS + "/life/deks/life-value/versions?deleted=true")).body());
        assertEquals(204, http.send("POST", KEKS + "/life/deks/life-value/versions/2/undelete", null).status());
        assertEquals(204, http.delete(KEKS + "/life/deks/life-value").status());
        assertEquals("[]", ok(http.get(KEKS + "/life/deks")).body());
        assertEquals(204, http.delete(KEKS + "/life").status());
        assertEquals(40470, http.get(KEKS + "/life").errorCode(), "soft-deleted");
        assertTrue(ok(http.get(KEKS + "/life?deleted=true")).json().get("deleted").asBoolean());
        assertEquals(40472, http.send("POST", KEKS + "/life/deks/life-value/undelete", null).errorCode(),
                "the KEK first");
        assertEquals(204, http.send("POST", KEKS + "/life/undelete", null).status());
        assertEquals(204, http.send("POST", KEKS + "/life/deks/life-value/undelete", null).status());
        assertEquals("[1,2]", ok(http.get(KEKS + "/life/deks/life-value/versions")).body());
        assertTrue(http.get("/admin/position").json().get("offset").asLong() > before);
    }

    @Test
    void whatTheRegistryCannotDoIsAClearRefusalThatChangesNothing() {
        ok(http.post(KEKS, "{\"name\":\"shared\",\"kmsType\":\"aws-kms\",\"kmsKeyId\":\"arn:x\",\"shared\":true}"));
        long before = http.get("/admin/position").json().get("offset").asLong();
        Http.Response generate = http.post(KEKS + "/shared/deks/s-value", "{}");
        assertEquals(422, generate.status(), generate.body());
        assertEquals(42271, generate.errorCode());
        assertTrue(generate.body().contains("aws-kms"), generate.body());
        assertEquals(42271, http.post(KEKS + "/shared/deks/s-value", "{\"subject\":\"other\",\"encryptedKeyMaterial\":"
                + "\"eA==\"}").errorCode(), "the path and the body name different subjects");
        assertEquals(40470, http.post(KEKS + "/nope/deks/s-value", "{\"encryptedKeyMaterial\":\"eA==\"}").errorCode());
        assertEquals(before, http.get("/admin/position").json().get("offset").asLong(), "nothing was journaled");
    }

    @Test
    void everyReadOfAKeyIsALineOfTheKeyAuditLogWithoutMaterial() {
        java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        var context = (org.apache.logging.log4j.core.LoggerContext) org.apache.logging.log4j.LogManager.getContext(false);
        var config = context.getConfiguration();
        var appender = new org.apache.logging.log4j.core.appender.AbstractAppender("key-reads", null, null, true,
                org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
            @Override
            public void append(org.apache.logging.log4j.core.LogEvent event) {
                lines.add(event.getMessage().getFormattedMessage());
            }
        };
        appender.start();
        var logger = new org.apache.logging.log4j.core.config.LoggerConfig("quire.audit.keys",
                org.apache.logging.log4j.Level.INFO, false);
        logger.addAppender(appender, org.apache.logging.log4j.Level.INFO, null);
        config.addLogger("quire.audit.keys", logger);
        context.updateLoggers();
        try {
            ok(http.post(KEKS, "{\"name\":\"audited\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"k\"}"));
            ok(http.post(KEKS + "/audited/deks/a-value", "{\"encryptedKeyMaterial\":\"c2VjcmV0\"}"));
            ok(http.get(KEKS + "/audited/deks/a-value/versions/1"));
            ok(http.get(KEKS + "/audited/deks"));
            assertTrue(lines.contains("anonymous read dek audited/a-value/1"), lines.toString());
            assertTrue(lines.contains("anonymous listed deks of kek audited"), lines.toString());
            assertTrue(lines.stream().noneMatch(l -> l.contains("c2VjcmV0")), "never material");
        } finally {
            config.removeLogger("quire.audit.keys");
            context.updateLoggers();
        }
    }
}
