package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import io.quire.node.security.UsersFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What the console stands on, without a browser: the static files and their headers, who-am-I,
 * the recent samples and the cluster view behind the admin role, a check at another level, and no
 * browser login prompt for the console's calls.
 */
class ConsoleApiIT {

    @Test
    void theConsolesFilesAndEndpointsAnswerAsTheyShould() throws Exception {
        Path data = Files.createTempDirectory("quire-console-api");
        Path users = data.resolve("users");
        Files.writeString(users, String.join("\n",
                "root:" + UsersFile.hash("root-pw".toCharArray(), 4) + ":admin",
                "rita:" + UsersFile.hash("rita-pw".toCharArray(), 4) + ":reader:orders-"));
        try (QuireNode node = Nodes.start(Nodes.config("console-api-it", data.resolve("data"), "console-api",
                "--auth-users-file", users.toString()))) {
            Http anon = new Http(node.httpPort());
            Http admin = anon.as(Http.basic("root", "root-pw"));
            Http reader = anon.as(Http.basic("rita", "rita-pw"));

            Http.Response page = anon.get("/ui/");
            assertEquals(200, page.status());
            assertTrue(page.body().contains("<title>Quire console</title>"));
            assertTrue(page.raw().headers().firstValue("Content-Security-Policy").orElse("").startsWith("default-src 'self'"));
            assertEquals("nosniff", page.raw().headers().firstValue("X-Content-Type-Options").orElse(""));
            assertEquals(302, anon.get("/ui").status());
            Http.Response lib = anon.get("/ui/lib/diff/5.1.0/lib/index.mjs");
            assertEquals(200, lib.status());
            assertTrue(lib.raw().headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
            assertEquals(404, anon.get("/ui/lib/../../io/quire/node/Main.class").status(), "nothing outside the folders");
            assertEquals(404, anon.get("/ui/nothing.js").status());

            assertEquals("{\"authentication\":true,\"authenticated\":false}", anon.get("/v1/principal").body());
            var who = reader.get("/v1/principal").json();
            assertEquals("rita", who.get("name").asText());
            assertEquals("READER", who.get("role").asText());
            assertEquals("orders-", who.get("subjectPrefixes").get(0).asText());

            Http.Response prompt = anon.get("/subjects");
            assertEquals(401, prompt.status());
            assertTrue(prompt.raw().headers().firstValue("WWW-Authenticate").isPresent());
            Http.Response console = anon.get("/subjects", "X-Quire-Console", "1");
            assertEquals(401, console.status());
            assertFalse(console.raw().headers().firstValue("WWW-Authenticate").isPresent(),
                    "the console asks for credentials itself");

            assertEquals(403, reader.get("/admin/recent").status());
            assertEquals(403, reader.get("/admin/cluster").status());
            var recent = admin.get("/admin/recent").json();
            assertEquals(5, recent.get("intervalSeconds").asInt());
            assertTrue(recent.get("samples").size() >= 1, recent.toString());
            var cluster = admin.get("/admin/cluster").json();
            assertEquals(1, cluster.get("nodes").size(), "no --peer-nodes: this node only");
            assertEquals(admin.get("/admin/position").json().get("digest").asText(),
                    cluster.get("nodes").get(0).get("digest").asText());

            String id = "{\"name\":\"id\",\"type\":\"string\"}";
            assertEquals(200, admin.post("/subjects/orders-value/versions", schemaBody(record("O", id))).status());
            String breaking = schemaBody(record("O", id, "{\"name\":\"qty\",\"type\":\"int\"}"));
            String path = "/compatibility/subjects/orders-value/versions";
            assertEquals(403, reader.post(path, breaking).status(), "checks are a writer's");
            assertFalse(admin.post(path, breaking).json().get("is_compatible").asBoolean());
            assertTrue(admin.post(path + "?level=NONE", breaking).json().get("is_compatible").asBoolean(),
                    "at level NONE anything goes");
            assertTrue(admin.post(path + "?level=FORWARD", breaking).json().get("is_compatible").asBoolean(),
                    "old readers ignore a new field");
            assertEquals(42203, admin.post(path + "?level=SOMETIMES", breaking).errorCode());
            assertEquals("BACKWARD", admin.get("/config/orders-value?defaultToGlobal=true").json()
                    .get("compatibilityLevel").asText(), "a check at another level changes nothing");
        }
    }
}
