package io.quire.node.kube;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A subject's schema as a Kubernetes resource ({@code schemas.quire.io/v1}). Quire's reconciler
 * plans and applies it through the same code as a folder of schemas; its status says what the
 * registry holds and why, in terms a GitOps tool can read. The CRD is generated from these types
 * by fabric8's CRD generator at build time and shipped in the Helm chart.
 */
@Group(Schema.GROUP)
@Version("v1")
@Kind("Schema")
@Plural("schemas")
@Singular("schema")
@ShortNames("qschema")
public class Schema extends CustomResource<SchemaSpec, SchemaStatus> implements Namespaced {

    public static final String GROUP = "quire.io";

    /** The subject this resource manages: {@code spec.subject}, else its name, in its context if any. */
    public String subject() {
        SchemaSpec spec = getSpec();
        String name = spec == null || spec.subject == null || spec.subject.isBlank() ? getMetadata().getName()
                : spec.subject;
        String context = spec == null ? null : spec.context;
        if (context == null || context.isBlank() || context.equals(".") || name.startsWith(":.")) {
            return name;
        }
        return ":" + (context.startsWith(".") ? context : "." + context) + ":" + name;
    }
}
