package io.quire.node.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quire.node.QuireNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.ConfluentKafkaContainer;

/**
 * The same table of requests against Confluent's own registry (cp-schema-registry in a container)
 * and a Quire node, comparing what a client sees: the status, the error code, and whether the
 * fields clients read are there. Needs a Docker engine; where none runs it is skipped, and every
 * behaviour it compares is also tested against Quire alone (RegistryApiIT, DataContractIT,
 * ResponseDetailsIT, ClientMistakesIT, ContextsIT).
 */
@Testcontainers(disabledWithoutDocker = true)
class ConfluentParityIT {

    static final String CONFLUENT_VERSION = "8.1.0";

    static final Network NETWORK = Network.newNetwork();

    @Container
    static final ConfluentKafkaContainer KAFKA = new ConfluentKafkaContainer(
            "confluentinc/cp-kafka:" + CONFLUENT_VERSION).withNetwork(NETWORK).withNetworkAliases("kafka");

    @Container
    static final GenericContainer<?> CONFLUENT = new GenericContainer<>(
            "confluentinc/cp-schema-registry:" + CONFLUENT_VERSION)
            .withNetwork(NETWORK)
            .dependsOn(KAFKA)
            .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
            .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://kafka:9093")
            .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081")
            .withExposedPorts(8081)
            .waitingFor(Wait.forHttp("/subjects").forStatusCode(200));

    /** One request of the table: what to send, and which fields of a 200 answer clients read. */
    record Step(String method, String path, String body, List<String> fields) {
    }

    static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";
    static final String ORDER_INCOMPATIBLE =
            "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";

    static String body(String schema, String extra) {
        return "{\"schema\":" + Http.JSON.valueToTree(schema) + extra + "}";
    }

    static final String BASE = "{\"type\":\"record\",\"name\":\"Base\",\"namespace\":\"p\","
            + "\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
    static final String HOLDER = "{\"type\":\"record\",\"name\":\"Holder\",\"namespace\":\"p\","
            + "\"fields\":[{\"name\":\"b\",\"type\":\"p.Base\"}]}";

    /** A row whose answer a place in Confluent's code fixes: ClientMistakesIT checks Quire's alone, without Docker. */
    record Pinned(Step step, int status, int errorCode, String where) {
    }

    static final List<Pinned> PINNED = List.of(
            new Pinned(new Step("POST", "/subjects/pin-base/versions", body(BASE, ""), List.of("id")), 200, -1, "setup"),
            new Pinned(new Step("POST", "/subjects/pin-holder/versions", body(HOLDER,
                    ",\"references\":[{\"name\":\"p.Base\",\"subject\":\"pin-base\",\"version\":1}]"), List.of("id")),
                    200, -1, "setup"),
            new Pinned(new Step("DELETE", "/subjects/pin-base/versions/1", null, List.of()), 422, 42206,
                    "KafkaSchemaRegistry.deleteSchemaVersion: getReferencedBy(key, permanentDelete) before the soft delete"),
            new Pinned(new Step("DELETE", "/subjects/pin-base", null, List.of()), 422, 42206,
                    "KafkaSchemaRegistry.deleteSubject: getReferencedBySubjects(key, permanentDelete), own subject removed"),
            new Pinned(new Step("POST", "/subjects/pin-base/versions", body(BASE.replace("\"a\"", "\"c\""),
                    ",\"version\":7"), List.of()), 422, 42201,
                    "KafkaSchemaRegistry.register: InvalidSchemaException \"Version is not one more than previous version\""),
            new Pinned(new Step("DELETE", "/config/pin-base", null, List.of()), 404, 40401,
                    "ConfigResource.deleteSubjectConfig: subjectNotFoundException when there is no config to delete"),
            new Pinned(new Step("PATCH", "/subjects", "{}", List.of()), 405, 405,
                    "Jersey's 405 for a resource without that method, rendered by the REST exception mapper"));

    static final List<Step> TABLE = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            new Step("POST", "/subjects/orders-value/versions", body(ORDER,
                    ",\"metadata\":{\"properties\":{\"owner\":\"team-a\"}},\"ruleSet\":{\"domainRules\":[{\"name\":"
                            + "\"checkId\",\"kind\":\"CONDITION\",\"mode\":\"WRITE\",\"type\":\"CEL\",\"expr\":\"true\"}]}"),
                    List.of("id", "guid")),
            new Step("GET", "/subjects/orders-value/versions/1", null,
                    List.of("subject", "version", "id", "guid", "metadata", "ruleSet", "schema")),
            new Step("GET", "/schemas/ids/1", null, List.of("schema", "metadata", "ruleSet")),
            new Step("POST", "/subjects/orders-value", body(ORDER, ""), List.of("subject", "version", "id")),
            new Step("POST", "/subjects/orders-value/versions", body(ORDER_INCOMPATIBLE, ""), List.of()),
            new Step("GET", "/subjects/orders-value/metadata?key=owner&value=team-a", null, List.of("version")),
            new Step("GET", "/subjects/orders-value/metadata?key=owner&value=nobody", null, List.of()),
            new Step("PUT", "/config/orders-value", "{\"compatibilityGroup\":\"major\"}", List.of("compatibilityGroup")),
            new Step("GET", "/config/orders-value", null, List.of("compatibilityGroup")),
            new Step("PUT", "/config/orders-value", "{}", List.of()),
            new Step("POST", "/subjects/bad-rules-value/versions", body(ORDER,
                    ",\"ruleSet\":{\"migrationRules\":[{\"name\":\"x\",\"mode\":\"WRITE\",\"type\":\"CEL\"}]}"), List.of()),
            new Step("DELETE", "/subjects/orders-value/versions/1", null, List.of()),
            new Step("GET", "/subjects/orders-value/versions?deleted=true&deletedAsNegative=true", null, List.of()),
            new Step("GET", "/schemas/ids/1?fetchMaxId=true", null, List.of("maxId")),
            new Step("GET", "/schemas/guids/00000000-0000-0000-0000-000000000000", null, List.of()),
            new Step("GET", "/subjects/nobody/versions", null, List.of()),
            new Step("POST", "/subjects/:.parity:orders-value/versions", body(ORDER, ""), List.of("id")),
            new Step("POST", "/contexts/.parity/subjects/orders-value", body(ORDER, ""), List.of("subject", "id")),
            new Step("GET", "/contexts", null, List.of()),
            new Step("GET", "/contexts/.parity/subjects", null, List.of()),
            new Step("GET", "/subjects?subjectPrefix=:.parity:", null, List.of()),
            new Step("PUT", "/contexts/.parity/config", "{\"compatibility\":\"NONE\"}", List.of("compatibility")),
            new Step("GET", "/config/:.parity:", null, List.of("compatibilityLevel")),
            new Step("POST", "/subjects/:.parity:orders-value/versions", body(ORDER_INCOMPATIBLE, ""), List.of("id")),
            new Step("GET", "/schemas/ids/2?subject=:.parity:", null, List.of("schema"))),
            PINNED.stream().map(Pinned::step)).toList();

    @Test
    void theSameRequestsGetTheSameAnswersFromConfluentAndFromQuire() throws Exception {
        Http confluent = new Http(java.net.http.HttpClient.newHttpClient(),
                "http://" + CONFLUENT.getHost() + ":" + CONFLUENT.getMappedPort(8081), null);
        try (QuireNode node = Nodes.start(Nodes.config("parity-it", Files.createTempDirectory("quire-parity"),
                "parity-node", "--incompatible-error-code", "40901"))) {
            Http quire = new Http(node.httpPort());
            List<String> differences = new ArrayList<>();
            for (Step s : TABLE) {
                Http.Response c = confluent.send(s.method(), s.path(), s.body());
                Http.Response q = quire.send(s.method(), s.path(), s.body());
                String what = s.method() + " " + s.path();
                if (c.status() != q.status() || c.errorCode() != q.errorCode()) {
                    differences.add(what + ": Confluent " + c.status() + "/" + c.errorCode() + " " + c.body()
                            + ", Quire " + q.status() + "/" + q.errorCode() + " " + q.body());
                    continue;
                }
                if (c.status() == 200 && !s.fields().isEmpty()) {
                    JsonNode cj = c.json();
                    JsonNode qj = q.json();
                    for (String f : s.fields()) {
                        if (cj.has(f) != qj.has(f)) {
                            differences.add(what + ": field " + f + " in Confluent's answer " + cj.has(f)
                                    + ", in Quire's " + qj.has(f));
                        }
                    }
                }
                if ((s.path().contains("deletedAsNegative") || s.path().contains("/contexts/.parity/subjects")
                        || s.path().equals("/contexts")) && !c.body().equals(q.body())) {
                    differences.add(what + ": Confluent " + c.body() + ", Quire " + q.body());
                }
            }
            assertEquals(List.of(), differences);
        }
    }
}
