package io.quire.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.quire.node.config.QuireConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Helm chart, rendered and linted by Helm's library, read strictly, its command parsed by the node. */
class ChartTest {

    @Test
    void lintsCleanInStrictMode() {
        LintResult lint = new Helm(Rendered.CHART).lint().strict().call();
        assertFalse(lint.isFailed(), () -> "helm lint --strict: " + lint.getMessages());
    }

    @Test
    void defaultValuesRenderThreeNodesWithVolumesProbesAndABudget() throws Exception {
        Rendered r = Rendered.of();
        StatefulSet sts = r.one(StatefulSet.class);
        assertEquals(3, sts.getSpec().getReplicas());
        assertEquals("registry-quire-headless", sts.getSpec().getServiceName());
        assertEquals("view", sts.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
        assertEquals(2, r.all(Service.class).size());
        Service headless = r.all(Service.class).stream().filter(s -> "None".equals(s.getSpec().getClusterIP()))
                .findFirst().orElseThrow();
        assertTrue(headless.getSpec().getPublishNotReadyAddresses());
        assertEquals(1, r.one(PodDisruptionBudget.class).getSpec().getMaxUnavailable().getIntVal());
        assertTrue(r.all(HorizontalPodAutoscaler.class).isEmpty());
        assertTrue(r.all(NetworkPolicy.class).isEmpty());
        assertTrue(r.all(ServiceMonitor.class).isEmpty());
        assertTrue(r.all(Secret.class).isEmpty());
        assertTrue(r.kafkaTopics.isEmpty());

        Container c = r.container();
        assertEquals("/health/ready", c.getStartupProbe().getHttpGet().getPath());
        assertEquals("/health/ready", c.getReadinessProbe().getHttpGet().getPath());
        assertEquals("/health/live", c.getLivenessProbe().getHttpGet().getPath());
        // a full replay fits in the startup probe's patience before liveness takes over
        assertTrue(c.getStartupProbe().getPeriodSeconds() * c.getStartupProbe().getFailureThreshold() >= 1800);
    }

    @Test
    void theContainerIsRestrictedAndSizedFromTheNodesOneMemoryBudget() throws Exception {
        Rendered r = Rendered.of("production.yaml");
        Container c = r.container();
        assertFalse(c.getSecurityContext().getAllowPrivilegeEscalation());
        assertTrue(c.getSecurityContext().getReadOnlyRootFilesystem());
        assertTrue(c.getSecurityContext().getRunAsNonRoot());
        assertEquals(List.of("ALL"), c.getSecurityContext().getCapabilities().getDrop());
        PodSpec pod = r.one(StatefulSet.class).getSpec().getTemplate().getSpec();
        assertTrue(pod.getSecurityContext().getRunAsNonRoot());
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        assertFalse(pod.getAutomountServiceAccountToken());
        // heap 1024 + view 512 + overhead 384 (the JVM's own 288, native 96)
        assertEquals(new Quantity("1920Mi"), c.getResources().getLimits().get("memory"));
        assertEquals(c.getResources().getLimits().get("memory"), c.getResources().getRequests().get("memory"));
        assertTrue(c.getArgs().contains("-Xmx1024m"));
        Map<String, String> env = r.environment("registry-quire-0", Map.of());
        assertEquals("512", env.get("QUIRE_VIEW_MEMORY_MIB"));
        // the pod's grace period covers the node's own drain
        long drainMs = Long.parseLong(env.get("QUIRE_SHUTDOWN_DELAY_MS")) + Long.parseLong(env.get("QUIRE_SHUTDOWN_TIMEOUT_MS"));
        assertTrue(pod.getTerminationGracePeriodSeconds() * 1000 > drainMs);
    }

    @Test
    void productionVariantWiresKafkaSecurityTlsAuthAndMonitoring() throws Exception {
        Rendered r = Rendered.of("production.yaml");
        Map<String, String> env = r.environment("registry-quire-1", Map.of(
                "quire-kafka-user/sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;"));
        assertEquals("SASL_SSL", env.get("QUIRE_KAFKA_SECURITY_PROTOCOL"));
        assertEquals("/etc/quire/kafka/ca.p12", env.get("QUIRE_KAFKA_SSL_TRUSTSTORE_LOCATION"));
        assertTrue(env.get("QUIRE_KAFKA_SASL_JAAS_CONFIG").startsWith("org.apache.kafka"));
        assertEquals("/etc/quire/secrets/users", env.get("QUIRE_AUTH_USERS_FILE"));
        assertEquals("/etc/quire/secrets/jwt-public-key.pem", env.get("QUIRE_AUTH_JWT_PUBLIC_KEY_FILE"));
        assertNull(env.get("QUIRE_AUTH_JWT_HMAC_SECRET_FILE"));
        assertEquals("/etc/quire/tls/tls.crt", env.get("QUIRE_TLS_CERT_FILE"));
        assertEquals("https://sso.example.com/realms/platform", env.get("QUIRE_AUTH_OIDC_ISSUER"));
        assertEquals("quire-console", env.get("QUIRE_AUTH_OIDC_CONSOLE_CLIENT_ID"));
        assertEquals("realm_access.roles,groups", env.get("QUIRE_AUTH_JWT_ROLES_CLAIM"));
        assertEquals("preferred_username", env.get("QUIRE_AUTH_JWT_PRINCIPAL_CLAIM"));
        long names = r.container().getEnv().stream().map(e -> e.getName()).distinct().count();
        assertEquals(r.container().getEnv().size(), names, "no variable twice");
        assertEquals("HTTPS", r.container().getReadinessProbe().getHttpGet().getScheme());
        assertTrue(env.get("QUIRE_PEER_NODES").startsWith("https://registry-quire-0.registry-quire-headless.schemas.svc"));
        assertTrue(r.all(Secret.class).isEmpty(), "an existing Secret is used, none is made");

        ServiceMonitor sm = r.one(ServiceMonitor.class);
        assertEquals("headless", sm.getSpec().getSelector().getMatchLabels().get("quire.io/service"));
        assertEquals("https", sm.getSpec().getEndpoints().get(0).getScheme());
        assertEquals("prometheus", sm.getMetadata().getLabels().get("release"));
        NetworkPolicy np = r.one(NetworkPolicy.class);
        assertEquals(2, np.getSpec().getIngress().get(0).getFrom().size());

        var topic = r.kafkaTopics.get(0);
        assertEquals("_quire_journal", topic.path("spec").path("topicName").asText());
        assertEquals(1, topic.path("spec").path("partitions").asInt());
        assertEquals(3, topic.path("spec").path("replicas").asInt());
        assertEquals(2, topic.path("spec").path("config").path("min.insync.replicas").asInt());
        assertEquals(-1, topic.path("spec").path("config").path("retention.ms").asInt());
        assertEquals("events", topic.path("metadata").path("labels").path("strimzi.io/cluster").asText());
    }

    @Test
    void ephemeralVariantScalesOnCpuAndFillsItsViewFromAPeer() throws Exception {
        Rendered r = Rendered.of("autoscaled-ephemeral.yaml");
        StatefulSet sts = r.one(StatefulSet.class);
        assertNull(sts.getSpec().getReplicas(), "the autoscaler owns the replica count");
        assertTrue(sts.getSpec().getVolumeClaimTemplates().isEmpty());
        assertTrue(sts.getSpec().getTemplate().getSpec().getVolumes().stream()
                .anyMatch(v -> v.getName().equals("view") && v.getEmptyDir() != null));
        HorizontalPodAutoscaler hpa = r.one(HorizontalPodAutoscaler.class);
        assertEquals("StatefulSet", hpa.getSpec().getScaleTargetRef().getKind());
        assertEquals(60, hpa.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization());
        Map<String, String> env = r.environment("registry-quire-4", Map.of());
        assertEquals("http://registry-quire.schemas.svc.cluster.local:8081", env.get("QUIRE_BOOTSTRAP_SNAPSHOT"));
        assertEquals("false", env.get("QUIRE_BOOTSTRAP_SNAPSHOT_REQUIRED"));
    }

    @Test
    void secretsGivenAsValuesAreMountedAndNamedToTheNode() throws Exception {
        Rendered r = Rendered.of("chart-values-secrets.yaml");
        Secret s = r.one(Secret.class);
        assertEquals(java.util.Set.of("users", "jwt-hmac-secret", "kms-local-secret"), s.getStringData().keySet());
        Map<String, String> env = r.environment("registry-quire-0", Map.of());
        assertEquals("/etc/quire/secrets/jwt-hmac-secret", env.get("QUIRE_AUTH_JWT_HMAC_SECRET_FILE"));
        assertEquals("/etc/quire/secrets/kms-local-secret", env.get("QUIRE_KMS_LOCAL_SECRET_FILE"));
        assertTrue(r.one(StatefulSet.class).getSpec().getTemplate().getMetadata().getAnnotations()
                .containsKey("checksum/secrets"), "a changed Secret rolls the nodes");
    }

    @Test
    void everyVariantsCommandAndEnvironmentPassTheNodesOwnOptionParser() throws Exception {
        for (String[] variant : new String[][]{{}, {"production.yaml"}, {"autoscaled-ephemeral.yaml"},
                {"chart-values-secrets.yaml"}}) {
            Rendered r = Rendered.of(variant);
            List<String> args = r.container().getArgs();
            int jar = args.indexOf("-jar");
            assertEquals(List.of("-jar", "/opt/quire/quire.jar", "serve"), args.subList(jar, args.size()),
                    "the node runs serve, configured through its environment");
            Map<String, String> env = r.environment("registry-quire-2", Map.of());
            QuireConfig config = QuireConfig.from(false, new String[0], env);
            assertEquals("registry-quire-2", config.nodeId());
            assertEquals(env.get("QUIRE_BOOTSTRAP_SERVERS"), config.bootstrapServers());
            assertEquals(Path.of("/var/lib/quire"), config.dataDir());
            assertEquals(Integer.parseInt(env.get("QUIRE_VIEW_MEMORY_MIB")), config.view().memoryMib());
            assertEquals(3, config.peerNodes().size(), String.join(" ", variant));
            assertEquals(5000, config.shutdown().delayMs());
            assertEquals(env.getOrDefault("QUIRE_AUTH_OIDC_ISSUER", ""), config.security().tokens().oidcIssuer());
        }
    }

    @Test
    void schemaResourcesRenderTheGeneratedCrdAServiceAccountAndTheRoleTheReconcilerNeeds() throws Exception {
        assertTrue(Rendered.of().all(CustomResourceDefinition.class).isEmpty(), "off by default");
        Rendered r = Rendered.of("registry", "schemas", List.of(), Map.of("schemaResources.enabled", true,
                "schemaResources.authorization", "Basic c2NoZW1hczpzZWNyZXQ="));
        CustomResourceDefinition crd = r.one(CustomResourceDefinition.class);
        assertEquals("schemas.quire.io", crd.getMetadata().getName());
        assertEquals("Namespaced", crd.getSpec().getScope());
        assertNotNull(crd.getSpec().getVersions().get(0).getSubresources().getStatus(), "a status subresource");
        // the chart's copy is the one the build generated from the Java types
        String generated;
        try (var in = ChartTest.class.getResourceAsStream("/META-INF/fabric8/schemas.quire.io-v1.yml")) {
            generated = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertEquals(generated, java.nio.file.Files.readString(Rendered.CHART.resolve("files/schemas.quire.io-v1.yml")),
                "copy query-node/target/classes/META-INF/fabric8/schemas.quire.io-v1.yml to compose/helm/quire/files/");

        Role role = r.one(Role.class);
        assertEquals("schemas", role.getMetadata().getNamespace());
        assertTrue(role.getRules().stream().anyMatch(rule -> rule.getResources().contains("schemas/status")
                && rule.getVerbs().contains("update")));
        assertTrue(role.getRules().stream().anyMatch(rule -> rule.getResources().contains("configmaps")
                && rule.getVerbs().containsAll(List.of("get", "list", "watch")) && !rule.getVerbs().contains("update")));
        RoleBinding binding = r.one(RoleBinding.class);
        assertEquals(role.getMetadata().getName(), binding.getRoleRef().getName());
        String account = r.one(ServiceAccount.class).getMetadata().getName();
        assertEquals(account, binding.getSubjects().get(0).getName());
        PodSpec pod = r.one(StatefulSet.class).getSpec().getTemplate().getSpec();
        assertEquals(account, pod.getServiceAccountName());
        assertTrue(pod.getAutomountServiceAccountToken());

        Map<String, String> env = r.environment("registry-quire-0", Map.of());
        QuireConfig config = QuireConfig.from(false, new String[0], env);
        assertTrue(config.kubernetes().schemas());
        assertEquals("schemas", config.kubernetes().namespace());
        assertEquals("/etc/quire/secrets/schema-resources-authorization", config.kubernetes().authorizationFile());
        assertTrue(r.secretData().containsKey("schema-resources-authorization"));

        Rendered everywhere = Rendered.of("registry", "schemas", List.of(), Map.of("schemaResources.enabled", true,
                "schemaResources.namespace", "*", "schemaResources.installCrd", false));
        assertTrue(everywhere.all(CustomResourceDefinition.class).isEmpty());
        assertTrue(everywhere.all(Role.class).isEmpty());
        assertEquals(everywhere.one(ClusterRole.class).getMetadata().getName(),
                everywhere.one(ClusterRoleBinding.class).getRoleRef().getName());
        assertEquals("*", QuireConfig.from(false, new String[0], everywhere.environment("registry-quire-0", Map.of()))
                .kubernetes().namespace());
    }

    @Test
    void theOptionParserCheckFailsOnAValueTheNodeRefuses() throws Exception {
        Rendered r = Rendered.of("registry", "schemas", List.of(), Map.of("view.compression", "brotli"));
        Map<String, String> env = r.environment("registry-quire-0", Map.of());
        assertThrows(IllegalArgumentException.class, () -> QuireConfig.from(false, new String[0], env));
    }

    @Test
    void aFieldTheKubernetesApiDoesNotKnowFailsTheSchemaCheck() throws Exception {
        Path values = Path.of("target", "misspelled-values.yaml");
        java.nio.file.Files.writeString(values, "extraEnv:\n  - name: QUIRE_MAX_PAGE_SIZE\n    valu: \"100\"\n");
        AssertionError e = assertThrows(AssertionError.class,
                () -> Rendered.of("registry", "schemas", List.of(values), Map.of()));
        assertTrue(e.getMessage().contains("valu"), e.getMessage());
    }

    @Test
    void anEmptyBootstrapServersIsRefusedAtRenderTime() {
        Exception e = assertThrows(Exception.class,
                () -> Rendered.of("registry", "schemas", List.of(), Map.of("kafka.bootstrapServers", "")));
        assertTrue(e.getMessage().contains("kafka.bootstrapServers is required"), e.getMessage());
    }
}
