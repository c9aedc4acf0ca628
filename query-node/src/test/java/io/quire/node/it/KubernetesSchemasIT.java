package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.quire.node.kube.Schema;
import io.quire.node.kube.SchemaSpec;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code Schema} resources reconciled by real nodes (two processes on the in-process broker) from
 * fabric8's Kubernetes mock server in CRUD mode (watches, the status subresource, finalizers),
 * with the CRD the build generated: create, compatible and incompatible updates, references in both
 * orders, adoption, each deletion policy, a version registered by hand, a ConfigMap-held schema
 * edited, every node restarted, and the lease moving when the reconciling node is killed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubernetesSchemasIT {

    static final String NS = "team-a";
    static final String LEASE_MS = "3000";

    static KubernetesMockServer server;
    static KubernetesClient k8s;
    static Path dir;
    static final String TOPIC = "k8s-" + System.nanoTime();
    static final Process[] nodes = new Process[2];
    static final int[] ports = new int[2];
    static final Path[] logs = new Path[2];
    static final List<Long> syncMillis = new ArrayList<>();

    static final String CUSTOMER = Http.record("Customer", "{\"name\":\"id\",\"type\":\"string\"}");
    static final String ORDER_V1 = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    static final String ORDER_V2 = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
            + "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}]}";
    static final String ORDER_BREAKS = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
            + "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"},{\"name\":\"qty\",\"type\":\"int\"}]}";

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "quire-k8s");
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        k8s = server.createClient();
        try (InputStream crd = new FileInputStream("target/classes/META-INF/fabric8/schemas.quire.io-v1.yml")) {
            CustomResourceDefinition d = k8s.apiextensions().v1().customResourceDefinitions().load(crd).item();
            k8s.apiextensions().v1().customResourceDefinitions().resource(d).create();
        }
        for (int i = 0; i < 2; i++) {
            launch(i, 1);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Process p : nodes) {
            if (p != null) {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
        if (k8s != null) {
            k8s.close();
        }
        if (server != null) {
            server.destroy();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        if (!syncMillis.isEmpty()) {
            System.out.printf("Schema resources: change to Synced in %s ms (min %d, max %d)%n", syncMillis,
                    syncMillis.stream().mapToLong(Long::longValue).min().orElse(0),
                    syncMillis.stream().mapToLong(Long::longValue).max().orElse(0));
        }
    }

    static void launch(int i, int start) throws Exception {
        String nodeId = "k" + i;
        logs[i] = dir.resolve(nodeId + ".log");
        List<String> cmd = new ArrayList<>(List.of(ExportersIT.java(), "-Xmx384m", "-cp",
                System.getProperty("java.class.path"), "io.quire.node.Main", "serve", "--port", "0",
                "--data-dir", dir.resolve(nodeId).toString(), "--bootstrap-servers", SharedKafka.bootstrapServers(),
                "--journal-topic", TOPIC, "--journal-replication", "1", "--journal-min-isr", "1", "--node-id", nodeId,
                "--http-instances", "1", "--kubernetes-schemas", "true",
                "--kubernetes-api-url", "http://127.0.0.1:" + server.getPort(), "--kubernetes-namespace", NS,
                "--kubernetes-schemas-lease-ms", LEASE_MS, "--kubernetes-schemas-resync-ms", "1000"));
        nodes[i] = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs[i].toFile())).start();
        ports[i] = Nodes.portFromLog(logs[i], start, 90);
    }

    static Http registry() {
        for (int i = 0; i < 2; i++) {
            if (nodes[i] != null && nodes[i].isAlive()) {
                return new Http(ports[i]);
            }
        }
        throw new AssertionError("no node runs");
    }

    static Schema resource(String name, String text) {
        Schema s = new Schema();
        s.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        SchemaSpec spec = new SchemaSpec();
        spec.schema = text;
        s.setSpec(spec);
        return s;
    }

    static Schema get(String name) {
        return k8s.resources(Schema.class).inNamespace(NS).withName(name).get();
    }

    static Schema create(Schema s) {
        return k8s.resources(Schema.class).inNamespace(NS).resource(s).create();
    }

    /** Edits the spec as kubectl edit does: read, change, write under the read version, again on a conflict. */
    static Schema edit(String name, java.util.function.Consumer<SchemaSpec> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return k8s.resources(Schema.class).inNamespace(NS).withName(name).edit(s -> {
                    change.accept(s.getSpec());
                    return s;
                });
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    static Condition synced(Schema s) {
        return s == null || s.getStatus() == null ? null : s.getStatus().condition("Synced");
    }

    /** Waits until the resource's status, for its current generation, satisfies {@code what}. */
    static Schema await(String name, String description, Predicate<Schema> what) throws InterruptedException {
        long t0 = System.nanoTime();
        Schema[] last = new Schema[1];
        Nodes.await(() -> {
            last[0] = get(name);
            return last[0] != null && last[0].getStatus() != null && synced(last[0]) != null
                    && last[0].getMetadata().getGeneration().equals(last[0].getStatus().observedGeneration)
                    && what.test(last[0]);
        }, Duration.ofSeconds(40), () -> name + " " + description + "; status " + (last[0] == null ? "none"
                : k8s.getKubernetesSerialization().asJson(last[0].getStatus())));
        syncMillis.add((System.nanoTime() - t0) / 1_000_000);
        return last[0];
    }

    static Schema awaitReason(String name, String reason) throws InterruptedException {
        return await(name, "reason " + reason, s -> reason.equals(synced(s).getReason()));
    }

    static List<Integer> versions(String subject, boolean deleted) {
        Http.Response r = registry().get("/subjects/" + subject + "/versions" + (deleted ? "?deleted=true" : ""));
        List<Integer> out = new ArrayList<>();
        if (r.status() == 200) {
            r.json().forEach(n -> out.add(n.asInt()));
        }
        return out;
    }

    static List<String> events(String name) {
        return k8s.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).map(Event::getReason).toList();
    }

    @Test
    @Order(1)
    void aNewResourceIsRegisteredThenUpdatedCompatiblyAndAnIncompatibleChangeKeepsTheLastGoodVersion()
            throws Exception {
        Schema s = resource("orders-value", ORDER_V1);
        s.getSpec().compatibilityLevel = SchemaSpec.Compatibility.BACKWARD;
        create(s);
        Schema v1 = awaitReason("orders-value", "Synced");
        assertEquals("True", synced(v1).getStatus());
        assertEquals(1, v1.getStatus().version);
        assertEquals(registry().get("/subjects/orders-value/versions/1").json().path("id").asLong(), v1.getStatus().id);
        assertNotNull(v1.getStatus().guid);
        assertEquals("BACKWARD", registry().get("/config/orders-value").json().path("compatibilityLevel").asText());
        Nodes.await(() -> events("orders-value").contains("Registered"), Duration.ofSeconds(10), () -> "an event");
        // the audit trail names the resource and its generation as the change
        var trail = registry().get("/audit?subject=orders-value").json();
        assertEquals(2, trail.size(), trail.toString()); // its level and its first version, one change set
        for (var e : trail) {
            assertEquals("k8s:team-a/orders-value@" + v1.getMetadata().getGeneration(), e.path("changeId").asText());
        }

        edit("orders-value", spec -> spec.schema = ORDER_V2);
        Schema v2 = await("orders-value", "version 2", x -> "Synced".equals(synced(x).getReason())
                && Integer.valueOf(2).equals(x.getStatus().version));
        assertEquals(List.of(1, 2), versions("orders-value", false));

        edit("orders-value", spec -> spec.schema = ORDER_BREAKS);
        Schema refused = awaitReason("orders-value", "Incompatible");
        assertEquals("False", synced(refused).getStatus());
        assertTrue(synced(refused).getMessage().contains("qty"), synced(refused).getMessage());
        assertEquals(2, refused.getStatus().version, "the last good version stays in the status");
        assertEquals(List.of(1, 2), versions("orders-value", false), "nothing registered");
        // not tried again until the resource changes: resyncs (every second) leave it as it was
        String rv = refused.getMetadata().getResourceVersion();
        long compatChecks = compatibilityChecks();
        assertTrue(compatChecks > 0, "the refusal came from the registry's compatibility check");
        Thread.sleep(3_500);
        assertEquals(rv, get("orders-value").getMetadata().getResourceVersion());
        assertEquals(compatChecks, compatibilityChecks(), "no compatibility check while the resource is unchanged");
        assertTrue(events("orders-value").contains("Incompatible"));

        edit("orders-value", spec -> spec.schema = ORDER_V2.replace("\"default\":\"\"", "\"default\":\"-\""));
        Schema v3 = await("orders-value", "version 3", x -> "Synced".equals(synced(x).getReason())
                && Integer.valueOf(3).equals(x.getStatus().version));
        assertEquals("True", synced(v3).getStatus());
        assertEquals("BACKWARD", v3.getStatus().compatibilityLevel);

        // a level the resource stops giving is removed from the subject, not silently kept
        edit("orders-value", spec -> spec.compatibilityLevel = null);
        Schema cleared = await("orders-value", "its level cleared", x -> x.getStatus().compatibilityLevel == null
                && "Synced".equals(synced(x).getReason()));
        assertEquals(3, cleared.getStatus().version);
        assertEquals(40408, registry().get("/config/orders-value").errorCode(), "the subject has no level of its own");
        assertEquals(List.of(1, 2, 3), versions("orders-value", false));
    }

    /** Compatibility checks the registry answered, as its metrics count them on every node that runs. */
    static long compatibilityChecks() {
        long n = 0;
        for (int i = 0; i < 2; i++) {
            if (nodes[i] == null || !nodes[i].isAlive()) {
                continue;
            }
            Matcher m = Pattern.compile("quire_http_requests_seconds_count\\{[^}]*route=\"/compatibility[^}]*\\} (\\S+)")
                    .matcher(new Http(ports[i]).get("/metrics").body());
            while (m.find()) {
                n += (long) Double.parseDouble(m.group(1));
            }
        }
        return n;
    }

    @Test
    @Order(2)
    void referencesResolveInEitherOrder() throws Exception {
        // the referencing resource first: it waits for the one it names
        Schema order = resource("shipments-value", "{\"type\":\"record\",\"name\":\"Shipment\",\"fields\":["
                + "{\"name\":\"customer\",\"type\":\"Customer\"}]}");
        SchemaSpec.Reference ref = new SchemaSpec.Reference();
        ref.name = "Customer";
        ref.schemaRef = "customer-value";
        order.getSpec().references = List.of(ref);
        create(order);
        Schema waiting = awaitReason("shipments-value", "ReferenceMissing");
        assertEquals("False", synced(waiting).getStatus());
        create(resource("customer-value", CUSTOMER));
        awaitReason("customer-value", "Synced");
        Schema landed = awaitReason("shipments-value", "Synced");
        assertEquals(1, landed.getStatus().version);
        assertEquals("customer-value", registry().get("/subjects/shipments-value/versions/1").json()
                .path("references").path(0).path("subject").asText());

        // the referenced subject first, named as a subject with a version
        Schema invoice = resource("invoices-value", "{\"type\":\"record\",\"name\":\"Invoice\",\"fields\":["
                + "{\"name\":\"customer\",\"type\":\"Customer\"}]}");
        SchemaSpec.Reference bySubject = new SchemaSpec.Reference();
        bySubject.name = "Customer";
        bySubject.subject = "customer-value";
        bySubject.version = new IntOrString(1);
        invoice.getSpec().references = List.of(bySubject);
        create(invoice);
        assertEquals(1, awaitReason("invoices-value", "Synced").getStatus().version);
    }

    @Test
    @Order(3)
    void aSchemaTheRegistryHoldsIsAdoptedAndAVersionMadeByHandIsReportedNotFought() throws Exception {
        assertEquals(200, registry().post("/subjects/payments-value/versions",
                Http.schemaBody("{\"type\":\"record\",\"name\":\"Payment\",\"fields\":[{\"name\":\"cents\",\"type\":\"long\"}]}"))
                .status());
        // the same schema, formatted otherwise
        create(resource("payments-value", """
                {
                  "type" : "record", "name" : "Payment",
                  "fields" : [ { "name" : "cents", "type" : "long" } ]
                }
                """));
        Schema adopted = awaitReason("payments-value", "Synced");
        assertEquals(1, adopted.getStatus().version);
        assertEquals(List.of(1), versions("payments-value", false), "adopted without a new version");
        Nodes.await(() -> events("payments-value").contains("Adopted"), Duration.ofSeconds(10), () -> "Adopted");

        assertEquals(200, registry().post("/subjects/payments-value/versions",
                Http.schemaBody("{\"type\":\"record\",\"name\":\"Payment\",\"fields\":[{\"name\":\"cents\",\"type\":\"long\"},"
                        + "{\"name\":\"memo\",\"type\":\"string\",\"default\":\"\"}]}")).status());
        Schema drift = awaitReason("payments-value", "ChangedOutsideResource");
        assertEquals(1, drift.getStatus().version);
        assertEquals(2, drift.getStatus().latestVersion);
        assertEquals("False", synced(drift).getStatus());
        Thread.sleep(2_500); // resyncs: the hand-made version stays the latest
        assertEquals(List.of(1, 2), versions("payments-value", false));
    }

    @Test
    @Order(4)
    void aConfigMapHeldSchemaEditedBecomesANewVersionAndAnInvalidOneIsSaidSo() throws Exception {
        k8s.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("audit-schemas")
                .withNamespace(NS).endMetadata().withData(Map.of("event.avsc", Http.record("AuditEvent",
                        "{\"name\":\"at\",\"type\":\"long\"}"))).build()).create();
        Schema s = resource("audit-value", null);
        s.getSpec().schemaFrom = new SchemaSpec.SchemaSource();
        s.getSpec().schemaFrom.configMapKeyRef = new ConfigMapKeySelector("event.avsc", "audit-schemas", false);
        create(s);
        assertEquals(1, awaitReason("audit-value", "Synced").getStatus().version);
        k8s.configMaps().inNamespace(NS).withName("audit-schemas").edit(m -> {
            m.getData().put("event.avsc", Http.record("AuditEvent", "{\"name\":\"at\",\"type\":\"long\"}",
                    "{\"name\":\"by\",\"type\":\"string\",\"default\":\"\"}"));
            return m;
        });
        await("audit-value", "version 2 from the edited ConfigMap", x -> Integer.valueOf(2).equals(x.getStatus().version)
                && "Synced".equals(synced(x).getReason()));

        create(resource("broken-value", "{\"type\":\"record\",\"name\":\"Broken\",\"fields\":[{\"name\":\"x\"}]}"));
        Schema broken = awaitReason("broken-value", "InvalidSchema");
        assertTrue(versions("broken-value", false).isEmpty());
        assertFalse(synced(broken).getMessage().isEmpty());
    }

    @Test
    @Order(5)
    void eachDeletionPolicyDoesWhatItSays() throws Exception {
        for (SchemaSpec.DeletionPolicy policy : SchemaSpec.DeletionPolicy.values()) {
            String name = "gone-" + policy.name().toLowerCase() + "-value";
            Schema s = resource(name, Http.record("Gone" + policy.name(), "{\"name\":\"a\",\"type\":\"int\"}"));
            s.getSpec().deletionPolicy = policy;
            create(s);
            awaitReason(name, "Synced");
            if (policy != SchemaSpec.DeletionPolicy.Keep) {
                Nodes.await(() -> get(name).hasFinalizer("schemas.quire.io/subject"), Duration.ofSeconds(10),
                        () -> name + " has the finalizer");
            }
            k8s.resources(Schema.class).inNamespace(NS).withName(name).delete();
            Nodes.await(() -> get(name) == null, Duration.ofSeconds(30), () -> name + " deleted");
            switch (policy) {
                case Keep -> assertEquals(List.of(1), versions(name, false));
                case SoftDelete -> {
                    assertEquals(List.of(), versions(name, false));
                    assertEquals(List.of(1), versions(name, true));
                }
                case Delete -> assertEquals(List.of(), versions(name, true));
                default -> throw new AssertionError(policy);
            }
        }
    }

    /** What every resource's status says now: name, resource version, reason and version. */
    static Map<String, String> statuses() {
        Map<String, String> out = new java.util.TreeMap<>();
        for (Schema s : k8s.resources(Schema.class).inNamespace(NS).list().getItems()) {
            out.put(s.getMetadata().getName(), s.getMetadata().getResourceVersion() + " "
                    + k8s.getKubernetesSerialization().asJson(s.getStatus()));
        }
        return out;
    }

    static Map<String, List<Integer>> registryVersions() {
        Map<String, List<Integer>> out = new java.util.TreeMap<>();
        for (com.fasterxml.jackson.databind.JsonNode n : registry().get("/subjects?deleted=true").json()) {
            out.put(n.asText(), versions(n.asText(), true));
        }
        return out;
    }

    @Test
    @Order(6)
    void restartingEveryNodeChangesNothing() throws Exception {
        Map<String, String> before = statuses();
        Map<String, List<Integer>> registryBefore = registryVersions();
        for (int i = 0; i < 2; i++) {
            nodes[i].destroy();
            nodes[i].waitFor(60, TimeUnit.SECONDS);
        }
        for (int i = 0; i < 2; i++) {
            launch(i, 2);
        }
        Nodes.await(() -> leader() >= 0, Duration.ofSeconds(30), () -> "a node reconciling");
        Thread.sleep(1_000);
        long reconciled = reconciles(leader());
        Thread.sleep(4_000); // several resyncs of every resource
        long after = reconciles(leader());
        assertTrue(after - reconciled >= before.size(), "every resource reconciled again by its resyncs: "
                + reconciled + " then " + after + " reconciles of " + before.size() + " resources");
        assertEquals(before, statuses(), () -> "events of customer-value: " + k8s.v1().events().inNamespace(NS).list()
                .getItems().stream().filter(e -> "customer-value".equals(e.getInvolvedObject().getName()))
                .map(e -> e.getReason() + " " + e.getMessage()).toList());
        assertEquals(registryBefore, registryVersions());
    }

    /** Reconciles node {@code i} made, of every result, by its metrics. */
    static long reconciles(int i) {
        Matcher m = Pattern.compile("quire_schema_reconciles_total\\{[^}]*\\} (\\S+)")
                .matcher(new Http(ports[i]).get("/metrics").body());
        long n = 0;
        while (m.find()) {
            n += (long) Double.parseDouble(m.group(1));
        }
        return n;
    }

    /** The node that reconciles now, by its metrics; -1 when none. */
    static int leader() {
        for (int i = 0; i < 2; i++) {
            if (nodes[i] != null && nodes[i].isAlive()
                    && new Http(ports[i]).get("/metrics").body().contains("quire_schema_reconciler_leader 1.0")) {
                return i;
            }
        }
        return -1;
    }

    @Test
    @Order(7)
    void theLeaseMovesWhenTheReconcilingNodeIsKilled() throws Exception {
        Nodes.await(() -> leader() >= 0, Duration.ofSeconds(30), () -> "a node reconciling");
        int first = leader();
        nodes[first].destroyForcibly().waitFor(30, TimeUnit.SECONDS); // kill -9
        long killed = System.nanoTime();
        create(resource("after-kill-value", Http.record("AfterKill", "{\"name\":\"a\",\"type\":\"int\"}")));
        awaitReason("after-kill-value", "Synced");
        long tookMs = (System.nanoTime() - killed) / 1_000_000;
        assertEquals(1 - first, leader());
        System.out.printf("Schema resources: reconciling node killed; a new resource Synced by the other in %d ms"
                + " (lease %s ms)%n", tookMs, LEASE_MS);
        launch(first, 3);
    }
}
