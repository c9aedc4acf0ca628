package io.quire.maven;

import io.quire.client.plan.Plan;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * Checks every schema of the folder against the registry, as the registry itself judges it (its
 * compatibility endpoint, at the subject's level), and fails the build on an incompatible or
 * invalid schema. Registers nothing.
 */
@Mojo(name = "test-compatibility", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresProject = false)
public class TestCompatibilityMojo extends RegistryMojo {

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skipped()) {
            return;
        }
        Plan plan = acceptedPlan();
        long checked = plan.changes().stream().filter(c -> c.action() == Plan.Action.NEW_VERSION).count();
        getLog().info("compatible: " + checked + " new version(s) checked, "
                + plan.changes().stream().filter(c -> c.action() == Plan.Action.CREATE).count() + " new subject(s)");
    }
}
