package io.quire.maven;

import io.quire.client.plan.Plan;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Says per subject what applying the folder would do (create, new version with the registry's
 * compatibility verdict, settings, deletes, nothing), changing nothing; fails the build when the
 * registry refuses a change, and when asked, when there is any change at all.
 */
@Mojo(name = "plan", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true, requiresProject = false)
public class PlanMojo extends RegistryMojo {

    /** Where the plan is saved as JSON, for {@code apply} with {@code quire.planFile}; not saved when unset. */
    @Parameter(property = "quire.planOutput")
    File planOutput;

    /** Fails the build when the folder and the registry differ (a check that a deploy happened). */
    @Parameter(property = "quire.failOnChanges", defaultValue = "false")
    boolean failOnChanges;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skipped()) {
            return;
        }
        Plan plan = plan(client());
        if (planOutput != null) {
            try {
                Files.createDirectories(planOutput.toPath().toAbsolutePath().getParent());
                Files.writeString(planOutput.toPath(), plan.json());
                getLog().info("plan saved to " + planOutput);
            } catch (IOException e) {
                throw new MojoExecutionException("cannot write " + planOutput, e);
            }
        }
        failOnRefusals(plan);
        if (failOnChanges && plan.exitCode() == 2) {
            throw new MojoFailureException("the registry differs from " + schemaDirectory + " (failOnChanges)");
        }
    }
}
