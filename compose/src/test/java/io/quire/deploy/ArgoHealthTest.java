package io.quire.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Argo CD health check of a {@code Schema} resource (compose/argocd/schema-health.lua), run by a
 * real Lua 5.4 interpreter the way Argo CD runs it (the resource as the global {@code obj}) against
 * the statuses Quire's reconciler writes: a refused change is never Healthy.
 */
class ArgoHealthTest {

    static final Path SCRIPT = Path.of("argocd", "schema-health.lua");
    static final ObjectMapper JSON = new ObjectMapper();

    static String lua() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            for (String name : new String[] {"lua5.4", "lua"}) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    /** The resource as a Lua table constructor. */
    static String table(JsonNode n) {
        if (n.isObject()) {
            StringBuilder sb = new StringBuilder("{");
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                sb.append("[").append(quote(e.getKey())).append("]=").append(table(e.getValue())).append(",");
            }
            return sb.append("}").toString();
        }
        if (n.isArray()) {
            StringBuilder sb = new StringBuilder("{");
            n.forEach(item -> sb.append(table(item)).append(","));
            return sb.append("}").toString();
        }
        if (n.isNumber() || n.isBoolean()) {
            return n.asText();
        }
        return n.isNull() ? "nil" : quote(n.asText());
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    /** What the health check says of {@code resource}: "status|message". */
    static String[] health(String lua, String resource) throws Exception {
        String program = "obj = " + table(JSON.readTree(resource)) + "\n"
                + "local hs = dofile(" + quote(SCRIPT.toAbsolutePath().toString()) + ")\n"
                + "io.write(hs.status, '|', hs.message or '')\n";
        Process p = new ProcessBuilder(lua, "-").redirectErrorStream(true).start();
        p.getOutputStream().write(program.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.split("\\|", 2);
    }

    static String resource(long generation, String status) {
        return "{\"apiVersion\":\"quire.io/v1\",\"kind\":\"Schema\",\"metadata\":{\"name\":\"orders-value\",\"generation\":"
                + generation + "},\"spec\":{\"schema\":\"{}\"}" + (status == null ? "" : ",\"status\":" + status) + "}";
    }

    static String status(long observed, String conditionStatus, String reason, String message) {
        return "{\"observedGeneration\":" + observed + ",\"subject\":\"orders-value\",\"version\":2,\"conditions\":["
                + "{\"type\":\"Synced\",\"status\":\"" + conditionStatus + "\",\"reason\":\"" + reason
                + "\",\"message\":\"" + message + "\",\"observedGeneration\":" + observed + "}]}";
    }

    @Test
    void aRefusedChangeIsDegradedAndOnlyASyncedCurrentGenerationIsHealthy() throws Exception {
        String lua = lua();
        Assumptions.assumeTrue(lua != null, "no Lua interpreter (lua5.4) on this machine");
        assertEquals("Progressing", health(lua, resource(1, null))[0]);
        assertEquals("Healthy", health(lua, resource(3, status(3, "True", "Synced", "registered as version 2")))[0]);
        // a status of an older generation says nothing of the current one
        assertEquals("Progressing", health(lua, resource(4, status(3, "True", "Synced", "version 2")))[0]);
        String[] refused = health(lua, resource(4, status(4, "False", "Incompatible",
                "READER_FIELD_MISSING_DEFAULT_VALUE qty")));
        assertEquals("Degraded", refused[0]);
        assertTrue(refused[1].contains("Incompatible") && refused[1].contains("qty"), refused[1]);
        assertEquals("Degraded", health(lua, resource(1, status(1, "False", "InvalidSchema", "not Avro")))[0]);
        assertEquals("Degraded", health(lua, resource(1, status(1, "False", "ChangedOutsideResource", "v3")))[0]);
        for (String passing : new String[] {"ReferenceMissing", "SchemaSourceMissing", "RegistryUnavailable"}) {
            assertEquals("Progressing", health(lua, resource(1, status(1, "False", passing, "tried again")))[0]);
        }
    }
}
