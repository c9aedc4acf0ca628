package io.quire.node.it;

import static io.quire.node.it.Http.record;
import static io.quire.node.it.Http.schemaBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.QuireNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Twenty thousand malformed, oversized, deeply nested, wrongly typed, invalid-UTF-8 and
 * path-traversal requests, sent as raw bytes to every endpoint: without a Host header, as forms
 * and multipart bodies, with a null in every list a body has, with broken chunked framing, and with
 * bodies far over the limit sent at full speed before the answer is read. Plus strict-value cases
 * (enum values with spaces or NULs, duplicate keys, a second JSON value), schemas of another type
 * for an Avro subject, reference diamonds, and a burst of concurrent writes to one subject.
 * Every request must be answered (no close without an answer), none with a 5xx, every error with
 * a JSON body without Java internals, and the node must log no ERROR; afterwards nothing was
 * written to the journal, the node still answers correctly, memory is bounded. The seed is
 * printed; set {@code -Dquire.fuzz.seed=N} to replay a run.
 */
class HostileInputIT {

    static final int REQUESTS = Integer.getInteger("quire.fuzz.requests", 20_000);
    static final int DIAMOND = 16;

    static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "G\u00e9T",
        "POST /x", ""};
    static final String[] TEMPLATES = {
        "/subjects/{s}/versions", "/subjects/{s}/versions/{v}", "/subjects/{s}/versions/{v}/schema",
        "/subjects/{s}", "/subjects", "/schemas/ids/{v}", "/schemas/ids/{v}/schema", "/schemas/ids/{v}/subjects",
        "/schemas/ids/{v}/versions", "/config", "/config/{s}", "/mode", "/mode/{s}",
        "/compatibility/subjects/{s}/versions", "/compatibility/subjects/{s}/versions/{v}", "/audit",
        "/admin/position", "/{s}", "/{s}/{s}/{s}", "",
        "/contexts", "/contexts/{s}", "/contexts/{s}/subjects/{s}/versions", "/contexts/{s}/schemas/ids/{v}",
        "/contexts/{s}/config", "/schemas/guids/{s}", "/subjects/{s}/metadata",
        "/associations", "/associations:batchMutate", "/associations:batchGet", "/associations/resources/{s}",
        "/associations/resources/{s}/{s}", "/associations/subjects/{s}",
        "/dek-registry/v1/keks", "/dek-registry/v1/keks/{s}", "/dek-registry/v1/keks/{s}/undelete",
        "/dek-registry/v1/keks/{s}/deks", "/dek-registry/v1/keks/{s}/deks/{s}",
        "/dek-registry/v1/keks/{s}/deks/{s}/versions/{v}"};
    static final String[] HOSTILE = {
        "..%2F..%2Fetc%2Fpasswd", "../../etc/passwd", "%00", "%ff%fe%fd", "%C0%AE%C0%AE", "%", "%zz", "a%0d%0aX: y",
        "\u0000", "-1", "0", "99999999999999999999", "latest", "-0", "1e9", "NaN", "%2e%2e", "\u202e\u0646",
        "ü", "a b", "a\tb", "{}", "[]", "'\"", "<script>", "%u0000", "CON", "..", ".", "//", "a;b", "a?b=c",
        "x".repeat(300), "y".repeat(20_000)};
    static final String[] QUERIES = {"", "?deleted=maybe", "?limit=-5", "?limit=abc&offset=-3",
        "?offset=99999999999", "?permanent=yes&deleted=1", "?subjectPrefix=%00", "?verbose=%ff",
        "?defaultToGlobal=", "?normalize=true&normalize=false", "?limit=2147483648", "?from=yesterday",
        "?after=-99&limit=0", "?" + "a=b&".repeat(2_000)};

    @Test
    void hostileRequestsNeverCrashNeverWriteAndLeaveTheNodeCorrect() throws Exception {
        long seed = Long.getLong("quire.fuzz.seed", System.nanoTime());
        System.out.println("hostile-input seed " + seed);
        Random random = new Random(seed);
        try (QuireNode node = Nodes.start(Nodes.config("hostile-it", Files.createTempDirectory("quire-hostile-it"),
                "hostile-node", "--max-body-bytes", "65536", "--max-schema-bytes", "8192"))) {
            Http http = new Http(node.httpPort());
            assertEquals(200, http.post("/subjects/fuzz-base/versions", schemaBody(record("Base",
                    "{\"name\":\"a\",\"type\":\"string\"}"))).status());
            registerDiamond(http);
            String position = http.get("/admin/position").body();
            String big = record("Big", "{\"name\":\"" + "f".repeat(9_000) + "\",\"type\":\"string\"}");
            assertEquals(42209, http.post("/subjects/fuzz-big/versions", schemaBody(big)).errorCode(),
                    "over --max-schema-bytes");
            assertEquals(42209, http.post("/subjects/fuzz-big/versions",
                    "{\"schema\":\"" + "x".repeat(70_000) + "\"}").errorCode(), "over --max-body-bytes");
            StringBuilder refs = new StringBuilder("{\"schema\":\"\\\"int\\\"\",\"references\":[");
            for (int i = 0; i < 65; i++) {
                refs.append(i == 0 ? "" : ",").append("{\"name\":\"r").append(i)
                        .append("\",\"subject\":\"fuzz-base\",\"version\":1}");
            }
            assertEquals(42201, http.post("/subjects/fuzz-refs/versions", refs.append("]}").toString()).errorCode(),
                    "over --max-references");
            assertEquals(200, http.get("/subjects?limit=2147483647").status(), "a huge limit is clamped, not refused");
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long heapBefore = rt.totalMemory() - rt.freeMemory();

            Map<Integer, Integer> statuses = new TreeMap<>();
            Map<String, Integer> codes = new TreeMap<>();
            try (ErrorLines errors = ErrorLines.watch()) {
                for (int i = 0; i < REQUESTS; i++) {
                    byte[] request = random.nextInt(8) == 0 ? targetedRequest(random) : hostileRequest(random);
                    Answer answer = send(node.httpPort(), request);
                    int status = answer.status();
                    statuses.merge(status, 1, Integer::sum);
                    codes.merge(status + "/" + errorCode(answer), 1, Integer::sum);
                    String shown = new String(request, 0, Math.min(request.length, 600), StandardCharsets.ISO_8859_1);
                    String context = "seed " + seed + ", request " + i + " got " + status + ":\n" + shown + "\n"
                            + answer.body();
                    assertTrue(status >= 100, "closed without an answer: " + context);
                    assertTrue(status < 500, context);
                    assertCleanError(answer, request, context);
                    assertEquals(List.of(), errors.lines(), () -> "ERROR logged: " + context);
                    if (i % 500 == 0) {
                        assertEquals(200, http.get("/subjects/fuzz-base/versions/1").status(), "node still serving");
                    }
                }
            }
            System.out.println("hostile-input statuses " + statuses);
            System.out.println("hostile-input status/error_code " + codes);
            Map<Integer, Integer> burst = contendedBurst(http);
            System.out.println("hostile-input contended burst " + burst);
            burst.keySet().forEach(st -> assertTrue(st == 200 || st == 409, "burst status " + st + " in " + burst));

            assertEquals(position, http.get("/admin/position").body(),
                    () -> "hostile requests reached the journal: " + http.get("/audit?after=1").body());
            assertEquals("[\"fuzz-base\"]", http.get("/subjects?subjectPrefix=fuzz").body());
            Http.Response ok = http.post("/subjects/fuzz-after/versions", schemaBody(record("After",
                    "{\"name\":\"a\",\"type\":\"string\"}")));
            assertEquals(200, ok.status(), "writes still work");
            System.gc();
            long heapAfter = rt.totalMemory() - rt.freeMemory();
            assertTrue(heapAfter - heapBefore < 256L << 20,
                    "heap grew by " + ((heapAfter - heapBefore) >> 20) + " MiB");
        }
    }

    /** Subjects d{k}a, d{k}b, each Avro record of level k referring to both records of level k-1. */
    static void registerDiamond(Http http) throws IOException {
        for (int k = 0; k < DIAMOND; k++) {
            for (String side : new String[] {"a", "b"}) {
                StringBuilder fields = new StringBuilder("{\"name\":\"own\",\"type\":\"int\"}");
                StringBuilder refs = new StringBuilder();
                if (k > 0) {
                    fields.append(",{\"name\":\"x\",\"type\":\"d.D").append(k - 1).append("a\"}")
                            .append(",{\"name\":\"y\",\"type\":\"d.D").append(k - 1).append("b\"}");
                    refs.append(diamondRefs(k - 1));
                }
                String schema = "{\"type\":\"record\",\"name\":\"D" + k + side + "\",\"namespace\":\"d\",\"fields\":["
                        + fields + "]}";
                String body = "{\"schema\":" + Http.JSON.writeValueAsString(schema) + ",\"references\":[" + refs + "]}";
                Http.Response r = http.post("/subjects/diamond-" + k + side + "/versions", body);
                assertEquals(200, r.status(), r.body());
            }
        }
    }

    static String diamondRefs(int level) {
        return "{\"name\":\"d.D" + level + "a\",\"subject\":\"diamond-" + level + "a\",\"version\":1},"
                + "{\"name\":\"d.D" + level + "b\",\"subject\":\"diamond-" + level + "b\",\"version\":1}";
    }

    static final String JSON_SCHEMA = "{\\\"type\\\":\\\"object\\\",\\\"properties\\\":{\\\"a\\\":{\\\"type\\\":\\\"string\\\"}}}";
    static final String PROTO = "syntax = \\\"proto3\\\";\\nmessage M {\\n  string a = 1;\\n}\\n";

    /**
     * A request that parses and routes but must still change nothing: strict-value violations for
     * /config and /mode, a schema of another type for the Avro subject (409), a lookup or check
     * through a 16-level reference diamond, an incompatible or duplicate-key registration.
     */
    static byte[] targetedRequest(Random r) {
        String top = "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"Base\\\",\\\"fields\\\":["
                + "{\\\"name\\\":\\\"z\\\",\\\"type\\\":\\\"d.D" + (DIAMOND - 1) + "a\\\"}]}\",\"references\":["
                + diamondRefs(DIAMOND - 1) + "]}";
        String[][] cases = {
            {"PUT", "/config", "{\"compatibility\":\"NONE\\u0000\"}"},
            {"PUT", "/config/fuzz-base", "{\"compatibility\":\" FULL\"}"},
            {"PUT", "/config", "{\"compatibilityLevel\":\"backward\\t\"}"},
            {"PUT", "/mode", "{\"mode\":\"READONLY \"}"},
            {"PUT", "/mode/fuzz-base", "{\"mode\":\"\\u0000IMPORT\"}"},
            {"PUT", "/config", "{\"compatibility\":\"NONE\",\"compatibility\":\"FULL\"}"},
            {"PUT", "/mode", "{\"mode\":\"READONLY\",\"mode\":\"READWRITE\"}"},
            {"PUT", "/config", "{\"compatibility\":\"NONE\"}{\"x\":1}"},
            {"PUT", "/mode", "{\"mode\":\"IMPORT\"} []"},
            {"POST", "/subjects/fuzz-base/versions", "{\"schema\":\"\\\"int\\\"\",\"schema\":\"\\\"long\\\"\"}"},
            {"POST", "/subjects/fuzz-base/versions", "{\"schemaType\":\"JSON\",\"schema\":\"" + JSON_SCHEMA + "\"}"},
            {"POST", "/subjects/fuzz-base/versions", "{\"schemaType\":\"PROTOBUF\",\"schema\":\"" + PROTO + "\"}"},
            {"POST", "/compatibility/subjects/fuzz-base/versions/latest",
                "{\"schemaType\":\"PROTOBUF\",\"schema\":\"" + PROTO + "\"}"},
            {"POST", "/compatibility/subjects/fuzz-base/versions", "{\"schemaType\":\"JSON\",\"schema\":\"" + JSON_SCHEMA + "\"}"},
            {"POST", "/subjects/fuzz-base/versions", top},
            {"POST", "/subjects/fuzz-base", top},
            {"POST", "/compatibility/subjects/fuzz-base/versions/1?verbose=true", top},
            {"POST", "/subjects/fuzz-base/versions", "{\"schema\":\"\\\"int\\\"\"}"},
            {"POST", "/subjects/fuzz-base/versions", "{\"schema\":\"\\\"int\\\"\",\"normalize\":true}  x"},
        };
        String[] c = cases[r.nextInt(cases.length)];
        byte[] body = c[2].getBytes(StandardCharsets.UTF_8);
        String head = c[0] + " " + c[1] + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/vnd.schemaregistry.v1+json\r\nContent-Length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Concurrent writes to one subject that must change nothing: the schema it has, and incompatible ones. */
    static Map<Integer, Integer> contendedBurst(Http http) throws Exception {
        Map<Integer, Integer> statuses = new java.util.concurrent.ConcurrentSkipListMap<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
        List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int n = i;
            done.add(pool.submit(() -> {
                String schema = n % 2 == 0 ? record("Base", "{\"name\":\"a\",\"type\":\"string\"}")
                        : record("Base", "{\"name\":\"a\",\"type\":\"int\"}", "{\"name\":\"b" + n + "\",\"type\":\"long\"}");
                int st = http.post("/subjects/fuzz-base/versions", schemaBody(schema)).status();
                statuses.merge(st, 1, Integer::sum);
            }));
        }
        for (java.util.concurrent.Future<?> f : done) {
            f.get(120, java.util.concurrent.TimeUnit.SECONDS);
        }
        pool.shutdown();
        return statuses;
    }

    static final java.util.regex.Pattern INTERNALS = java.util.regex.Pattern.compile(
            "Exception|\\tat |java\\.|io\\.quire|io\\.vertx|org\\.apache|com\\.fasterxml|`");

    /** An error answer (but HEAD's) has a Confluent JSON body, and no answer shows Java internals. */
    static void assertCleanError(Answer a, byte[] request, String context) {
        if (a.status() < 400) {
            return;
        }
        assertTrue(!INTERNALS.matcher(a.body()).find(), context + "\nanswer: " + a.body());
        if (new String(request, 0, Math.min(5, request.length), StandardCharsets.ISO_8859_1).startsWith("HEAD ")) {
            return;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode json = Http.JSON.readTree(a.body());
            assertTrue(json.path("error_code").isInt() && json.path("message").isTextual(),
                    context + "\nanswer: " + a.body());
        } catch (IOException e) {
            throw new AssertionError(context + "\nnot a JSON error body: " + a.body(), e);
        }
    }

    static final String[] CONTENT_TYPES = {"Content-Type: application/vnd.schemaregistry.v1+json\r\n",
        "Content-Type: text/plain\r\n", "Content-Type: \u0001\r\n", "",
        "Content-Type: application/x-www-form-urlencoded\r\n", "Content-Type: multipart/form-data; boundary=XX\r\n",
        "Content-Type: MULTIPART/mixed\r\n"};

    static byte[] hostileRequest(Random r) {
        String method = pick(r, METHODS);
        String path = pick(r, TEMPLATES).replace("{s}", pick(r, HOSTILE)).replace("{v}", pick(r, HOSTILE))
                + pick(r, QUERIES);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] body = hostileBody(r);
        boolean chunked = r.nextInt(12) == 0;
        String head = method + " " + path + " HTTP/1.1\r\n" + (r.nextInt(15) == 0 ? "" : "Host: 127.0.0.1\r\n")
                + "Connection: close\r\n"
                + pick(r, CONTENT_TYPES)
                + pick(r, new String[] {"", "X-Quire-Min-Offset: abc\r\n", "X-Quire-Min-Offset: -5\r\n",
                    "X-Quire-Min-Offset: 1e999\r\n", "Authorization: Basic !!!\r\n", "X-Long: " + "h".repeat(9_000)
                        + "\r\n"})
                + (chunked ? "Transfer-Encoding: chunked\r\n"
                    : r.nextInt(10) == 0 ? "Content-Length: 99999999\r\n" : "Content-Length: " + body.length + "\r\n")
                + "\r\n";
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(chunked ? brokenChunks(r, body) : body);
        return out.toByteArray();
    }

    /**
     * A body in chunked framing that the server can tell is broken before the client stops
     * sending: a size that is not hex, a size that overflows, a chunk longer than its size, a chunk
     * not ended by CRLF; or, now and then, correct framing around a hostile body.
     */
    static byte[] brokenChunks(Random r, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int n = body.length;
        switch (r.nextInt(5)) {
            case 0 -> out.writeBytes(("zz\r\n").getBytes(StandardCharsets.ISO_8859_1));
            case 1 -> out.writeBytes(("FFFFFFFFFFFFFFFFFFFF\r\n").getBytes(StandardCharsets.ISO_8859_1));
            case 2 -> {
                out.writeBytes((Integer.toHexString(Math.max(1, n / 2)) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(body);
            }
            case 3 -> {
                out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(body);
                out.writeBytes("XY".getBytes(StandardCharsets.ISO_8859_1));
            }
            default -> {
                out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(body);
                out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        out.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    /** Bodies with a null where a list item goes, for every list a request body has. */
    static final String[] NULL_ITEMS = {
        "{\"schema\":\"\\\"int\\\"\",\"references\":[null]}",
        "{\"schema\":\"\\\"int\\\"\",\"references\":[{\"name\":\"a\",\"subject\":\"fuzz-base\",\"version\":1},null]}",
        "{\"schema\":\"\\\"int\\\"\",\"ruleSet\":{\"domainRules\":[null]}}",
        "{\"schema\":\"\\\"int\\\"\",\"ruleSet\":{\"migrationRules\":[null],\"encodingRules\":[null]}}",
        "{\"schema\":\"\\\"int\\\"\",\"ruleSet\":{\"domainRules\":[{\"name\":\"r\",\"kind\":\"CONDITION\","
            + "\"mode\":\"WRITE\",\"type\":\"CEL\",\"tags\":[null]}]}}",
        "{\"schema\":\"\\\"int\\\"\",\"metadata\":{\"sensitive\":[null],\"tags\":{\"a\":[null]}}}",
        "{\"compatibility\":\"NONE\",\"defaultRuleSet\":{\"domainRules\":[null]},\"overrideMetadata\":{\"sensitive\":[null]}}",
        "{\"resourceName\":\"t\",\"resourceNamespace\":\"n\",\"resourceId\":\"i\",\"associations\":[null]}",
        "{\"requests\":[null]}",
        "{\"resourceIds\":[null],\"associationTypes\":[null]}",
        // A KEK has no list; a null doc is valid (Confluent's createKek checks name, kmsKeyId and kmsType), a null
        // kmsKeyId is not.
        "{\"name\":\"k\",\"kmsType\":\"local-kms\",\"kmsKeyId\":null,\"kmsProps\":{},\"doc\":null}",
        "[null]", "[null,null]"};

    static byte[] hostileBody(Random r) {
        return switch (r.nextInt(23)) {
            case 20 -> pick(r, NULL_ITEMS).getBytes(StandardCharsets.UTF_8);
            case 21 -> ("{\"schema\":\"" + "x".repeat(1 << (20 + r.nextInt(3))) + "\"}").getBytes(StandardCharsets.UTF_8);
            case 22 -> ("{\"schema\":\"\\\"int\\\"\",\"references\":["
                    + "{\"name\":\"a\",\"subject\":\"s\",\"version\":1},".repeat(100_000) + "{}]}").getBytes(StandardCharsets.UTF_8);
            case 0 -> new byte[0];
            case 1 -> "{\"schema\": ".getBytes(StandardCharsets.UTF_8);
            case 2 -> "[".repeat(30_000).getBytes(StandardCharsets.UTF_8);
            case 3 -> ("{\"schema\":\"" + "x".repeat(100_000) + "\"}").getBytes(StandardCharsets.UTF_8);
            case 4 -> "{\"schema\": 5}".getBytes(StandardCharsets.UTF_8);
            case 5 -> "{\"schema\": {\"type\":\"string\"}}".getBytes(StandardCharsets.UTF_8);
            case 6 -> new byte[] {'{', '"', 's', 'c', 'h', 'e', 'm', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe,
                (byte) 0xc0, (byte) 0x80, '"', '}'};
            case 7 -> "null".getBytes(StandardCharsets.UTF_8);
            case 8 -> "{\"schema\":\"{\\\"type\\\":\\\"record\\\"}\"}".getBytes(StandardCharsets.UTF_8);
            case 9 -> "{\"schema\":\"\\\"int\\\"\",\"references\":[{\"name\":null,\"subject\":7}]}"
                    .getBytes(StandardCharsets.UTF_8);
            case 10 -> "{\"compatibility\": 7, \"mode\": []}".getBytes(StandardCharsets.UTF_8);
            case 11 -> nestedAvro(r.nextInt(3_000) + 200);
            case 12 -> "{\"schema\":\"\\\"int\\\"\",\"schemaType\":\"KLINGON\"}".getBytes(StandardCharsets.UTF_8);
            case 13 -> "{\"schema\":\"\\\"int\\\"\",\"id\":-7,\"version\":\"x\"}".getBytes(StandardCharsets.UTF_8);
            case 14 -> ("{\"schema\":\"\\\"int\\\"\",\"references\":[" + "{\"name\":\"a\",\"subject\":\"nope\",\"version\":1},"
                    .repeat(200) + "{}]}").getBytes(StandardCharsets.UTF_8);
            case 15 -> nestedJsonSchema(r.nextInt(3_000) + 200);
            case 16 -> nestedProto(r.nextInt(2_000) + 50);
            case 17 -> ("{\"schemaType\":\"PROTOBUF\",\"schema\":\"" + pick(r, new String[] {"AAAA", "CgA=", "////",
                "syntax = \\\"proto3\\\"; message", "message A { string a = 1; string a = 2; }"}) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            case 18 -> ("{\"schemaType\":\"JSON\",\"schema\":" + pick(r, new String[] {"\"[]\"", "\"7\"",
                "\"{\\\"type\\\":[]}\"", "\"{\\\"$schema\\\":\\\"urn:nope\\\"}\"", "\"{\\\"minimum\\\":\\\"x\\\"}\""})
                    + "}").getBytes(StandardCharsets.UTF_8);
            default -> randomBytes(r, r.nextInt(2_000));
        };
    }

    /** A JSON Schema nested {@code depth} properties deep around an invalid keyword value: never valid. */
    static byte[] nestedJsonSchema(int depth) {
        String schema = "{\\\"type\\\":\\\"object\\\",\\\"properties\\\":{\\\"a\\\":".repeat(depth)
                + "{\\\"type\\\":5}" + "}}".repeat(depth);
        return ("{\"schemaType\":\"JSON\",\"schema\":\"" + schema + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /** Protobuf messages nested {@code depth} deep around a repeated field number: never valid. */
    static byte[] nestedProto(int depth) {
        String schema = "syntax = \\\"proto3\\\";\\n" + "message M { ".repeat(depth)
                + "string a = 1; string b = 1; " + "}".repeat(depth);
        return ("{\"schemaType\":\"PROTOBUF\",\"schema\":\"" + schema + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An Avro array of arrays of … nested {@code depth} times around an unknown type: valid JSON,
     * deep recursion in the schema parser, and never a valid schema (a fuzz request must not be one).
     */
    static byte[] nestedAvro(int depth) {
        String schema = "{\\\"type\\\":\\\"array\\\",\\\"items\\\":".repeat(depth) + "\\\"no.such.Type\\\""
                + "}".repeat(depth);
        return ("{\"schema\":\"" + schema + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    static String pick(Random r, String[] options) {
        return options[r.nextInt(options.length)];
    }

    record Answer(int status, String body) {
    }

    /** The {@code error_code} of a JSON error body, or 0. */
    static int errorCode(Answer a) {
        try {
            return Http.JSON.readTree(a.body()).path("error_code").asInt(0);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The node's ERROR log events while it is open (the node runs in this JVM, on its Log4j configuration). */
    static final class ErrorLines implements AutoCloseable {
        private final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final org.apache.logging.log4j.core.LoggerContext context;
        private final org.apache.logging.log4j.core.appender.AbstractAppender appender;

        private ErrorLines() {
            context = (org.apache.logging.log4j.core.LoggerContext) org.apache.logging.log4j.LogManager.getContext(false);
            appender = new org.apache.logging.log4j.core.appender.AbstractAppender("hostile-errors", null, null, true,
                    org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
                @Override
                public void append(org.apache.logging.log4j.core.LogEvent event) {
                    lines.add(event.getLoggerName() + ": " + event.getMessage().getFormattedMessage());
                }
            };
            appender.start();
            context.getConfiguration().getRootLogger().addAppender(appender, org.apache.logging.log4j.Level.ERROR, null);
            context.updateLoggers();
        }

        static ErrorLines watch() {
            return new ErrorLines();
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        @Override
        public void close() {
            context.getConfiguration().getRootLogger().removeAppender(appender.getName());
            context.updateLoggers();
            appender.stop();
        }
    }

    /**
     * The status line, the headers and as many body bytes as Content-Length says; not until the
     * connection closes, which a server may delay while it drains a body it refused.
     */
    static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int c;
        boolean ended = false;
        while (!ended && (c = in.read()) != -1) {
            head.write(c);
            ended = head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n");
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?im)^content-length:\\s*(\\d+)").matcher(headers);
        if (!ended || !length.find()) {
            return headers;
        }
        byte[] body = in.readNBytes(Integer.parseInt(length.group(1)));
        return headers + new String(body, StandardCharsets.UTF_8);
    }

    /** Sends raw bytes and reads the answer (status and body); status -1 when the server closed without one. */
    static Answer send(int port, byte[] request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the server may refuse and close before reading everything; read what it answered
            }
            InputStream in = s.getInputStream();
            String text;
            try {
                text = readAnswer(in);
            } catch (IOException e) {
                return new Answer(-1, "");
            }
            int eol = text.indexOf('\n');
            List<String> parts = List.of((eol < 0 ? text : text.substring(0, eol)).split(" "));
            if (parts.size() < 2 || !parts.get(0).startsWith("HTTP/")) {
                return new Answer(-1, text);
            }
            int bodyAt = text.indexOf("\r\n\r\n");
            return new Answer(Integer.parseInt(parts.get(1)), bodyAt < 0 ? "" : text.substring(bodyAt + 4));
        }
    }
}
