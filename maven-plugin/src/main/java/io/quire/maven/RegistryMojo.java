package io.quire.maven;

import io.quire.client.RegistryClient;
import io.quire.client.plan.Plan;
import io.quire.client.plan.PlanText;
import io.quire.client.plan.Planner;
import io.quire.client.plan.SchemaFolder;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What every goal shares: the registry (any that speaks Confluent's API), its credentials, the
 * folder of schemas (docs/schemas-as-code.md) and the plan of it against the registry.
 */
abstract class RegistryMojo extends AbstractMojo {

    /** The registry's URL: a Quire node, Confluent's registry, Apicurio's {@code /apis/ccompat/v7}. */
    @Parameter(property = "quire.registry", required = true)
    String registry;

    /** {@code user:password} for Basic authentication; none by default. */
    @Parameter(property = "quire.userInfo")
    String userInfo;

    /** A bearer token, sent as {@code Authorization: Bearer …}; none by default. */
    @Parameter(property = "quire.bearerToken")
    String bearerToken;

    /** The folder of schemas. */
    @Parameter(property = "quire.schemaDirectory", defaultValue = "${project.basedir}/src/main/schemas")
    File schemaDirectory;

    /** Whether subjects the folder no longer has are deleted (soft, unless {@link #permanent}). */
    @Parameter(property = "quire.allowDeletes", defaultValue = "false")
    boolean allowDeletes;

    /** With {@link #allowDeletes}: delete them for good. */
    @Parameter(property = "quire.permanent", defaultValue = "false")
    boolean permanent;

    /** Skips the goal. */
    @Parameter(property = "quire.skip", defaultValue = "false")
    boolean skip;

    /** Whether the goal is skipped ({@code quire.skip}), saying so. */
    boolean skipped() {
        if (skip) {
            getLog().info("skipped");
        }
        return skip;
    }

    /** The folder's plan, failing the build when the registry refuses any of its changes. */
    Plan acceptedPlan() throws MojoExecutionException, MojoFailureException {
        Plan plan = plan(client());
        failOnRefusals(plan);
        return plan;
    }

    RegistryClient client() {
        String authorization = bearerToken != null && !bearerToken.isBlank() ? "Bearer " + bearerToken.strip()
                : userInfo != null && !userInfo.isBlank() ? RegistryClient.basic(userInfo.strip()) : null;
        return new RegistryClient(registry, authorization, Duration.ofSeconds(60));
    }

    /** The folder planned against the registry, printed as the CLI prints it. */
    Plan plan(RegistryClient client) throws MojoExecutionException {
        if (!schemaDirectory.isDirectory()) {
            throw new MojoExecutionException("no folder of schemas at " + schemaDirectory);
        }
        try {
            Plan plan = new Planner(client).plan(SchemaFolder.read(schemaDirectory.toPath()),
                    new Planner.Options(allowDeletes, permanent));
            for (String line : PlanText.render(plan).split("\n")) {
                getLog().info(line);
            }
            return plan;
        } catch (IOException e) {
            throw new MojoExecutionException("cannot plan " + schemaDirectory + " against " + registry + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted", e);
        }
    }

    /** Fails the build when the registry refuses a change of the plan (incompatible, invalid). */
    static void failOnRefusals(Plan plan) throws MojoFailureException {
        if (plan.refused()) {
            StringBuilder why = new StringBuilder("the registry refuses:");
            for (Plan.Change c : plan.changes()) {
                if (c.action() == Plan.Action.REFUSED) {
                    why.append("\n  ").append(c.subject()).append(" (").append(c.file()).append("): ")
                            .append(c.messages() == null ? "" : String.join("; ", c.messages()));
                }
            }
            throw new MojoFailureException(why.toString());
        }
    }
}
