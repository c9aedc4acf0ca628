package io.quire.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chart rendered by Helm's own library (helm-java), each object read strictly into the
 * Kubernetes API's model types (fabric8): an unknown field anywhere is an error, as the API
 * server's strict field validation makes it.
 */
final class Rendered {

    static final Path CHART = Path.of("helm", "quire");
    static final Path EXAMPLES = Path.of("helm", "examples");

    /** API kinds the chart may render and the model types they are read into. */
    private static final Map<String, Class<?>> KINDS = Map.ofEntries(
            Map.entry("apps/v1/StatefulSet", StatefulSet.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/ServiceAccount", io.fabric8.kubernetes.api.model.ServiceAccount.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("rbac.authorization.k8s.io/v1/Role", io.fabric8.kubernetes.api.model.rbac.Role.class),
            Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", io.fabric8.kubernetes.api.model.rbac.RoleBinding.class),
            Map.entry("rbac.authorization.k8s.io/v1/ClusterRole", io.fabric8.kubernetes.api.model.rbac.ClusterRole.class),
            Map.entry("rbac.authorization.k8s.io/v1/ClusterRoleBinding",
                    io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding.class),
            Map.entry("apiextensions.k8s.io/v1/CustomResourceDefinition",
                    io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class));

    /**
     * Strimzi's KafkaTopic spec (kafka.strimzi.io/v1beta2): its fields, from Strimzi's
     * {@code KafkaTopicSpec}. Strimzi's model jar builds on another fabric8 major than the one here,
     * so this one kind is checked against its field list rather than its classes.
     */
    private static final java.util.Set<String> KAFKA_TOPIC_SPEC = java.util.Set.of("topicName", "partitions",
            "replicas", "config");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    final String yaml;
    final List<HasMetadata> objects = new ArrayList<>();
    final List<JsonNode> kafkaTopics = new ArrayList<>();

    private Rendered(String yaml) throws IOException {
        this.yaml = yaml;
        try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
            for (JsonNode doc : YAML.readValues(parser, JsonNode.class).readAll()) {
                if (doc == null || doc.isNull() || doc.isMissingNode() || doc.isEmpty()) {
                    continue;
                }
                String key = doc.path("apiVersion").asText() + "/" + doc.path("kind").asText();
                if (key.equals("kafka.strimzi.io/v1beta2/KafkaTopic")) {
                    checkKafkaTopic(doc);
                    kafkaTopics.add(doc);
                    continue;
                }
                Class<?> type = KINDS.get(key);
                if (type == null) {
                    throw new AssertionError("the chart rendered a kind it should not: " + key);
                }
                Object o = STRICT.readValue(doc.toString(), type);
                Strict.noUnknownFields(o, key + " " + doc.path("metadata").path("name").asText());
                objects.add((HasMetadata) o);
            }
        }
    }

    private static void checkKafkaTopic(JsonNode doc) {
        for (var it = doc.path("spec").fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!KAFKA_TOPIC_SPEC.contains(f)) {
                throw new AssertionError("KafkaTopic spec has a field Strimzi does not know: " + f);
            }
        }
        if (!(doc.path("metadata").path("name").asText().matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?"))) {
            throw new AssertionError("KafkaTopic name is not a DNS-1123 name: " + doc.path("metadata").path("name"));
        }
    }

    /** {@code helm template} of the chart with these values files and {@code --set}s. */
    static Rendered of(String release, String namespace, List<Path> valuesFiles, Map<String, Object> sets)
            throws IOException {
        var cmd = new Helm(CHART).template().withName(release).withNamespace(namespace);
        for (Path f : valuesFiles) {
            cmd = cmd.withValuesFile(f);
        }
        for (Map.Entry<String, Object> e : sets.entrySet()) {
            cmd = cmd.set(e.getKey(), e.getValue());
        }
        return new Rendered(cmd.call());
    }

    static Rendered of(String... valuesFiles) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String f : valuesFiles) {
            files.add(EXAMPLES.resolve(f));
        }
        return of("registry", "schemas", files, Map.of());
    }

    <T> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T> T one(Class<T> type) {
        List<T> found = all(type);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + ", rendered " + found.size());
        }
        return found.get(0);
    }

    Container container() {
        return one(StatefulSet.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    /**
     * The container's environment as the kubelet would give it to pod {@code podName}: field
     * references resolved, Secret references from {@code secrets} (secret/key to value).
     */
    Map<String, String> environment(String podName, Map<String, String> secrets) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar v : container().getEnv()) {
            if (v.getValue() != null) {
                env.put(v.getName(), v.getValue());
            } else if (v.getValueFrom().getFieldRef() != null) {
                if (!v.getValueFrom().getFieldRef().getFieldPath().equals("metadata.name")) {
                    throw new AssertionError("unexpected field reference " + v.getValueFrom().getFieldRef());
                }
                env.put(v.getName(), podName);
            } else {
                var ref = v.getValueFrom().getSecretKeyRef();
                env.put(v.getName(), secrets.getOrDefault(ref.getName() + "/" + ref.getKey(), "from-secret"));
            }
        }
        return env;
    }

    /** The rendered Secret's {@code stringData}, or an empty map. */
    Map<String, String> secretData() {
        List<Secret> s = all(Secret.class);
        return s.isEmpty() ? Map.of() : s.get(0).getStringData();
    }

    static ObjectNode values(Path file) throws IOException {
        return (ObjectNode) YAML.readTree(file.toFile());
    }
}
