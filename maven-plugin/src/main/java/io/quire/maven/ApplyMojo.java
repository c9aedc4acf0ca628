package io.quire.maven;

import io.quire.client.RegistryClient;
import io.quire.client.plan.ChangeInfo;
import io.quire.client.plan.Plan;
import io.quire.client.plan.PlanApply;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Applies the folder (planned now) or a saved plan: to a Quire node as one change set (all of it
 * lands or none does, recorded with the change's id and message), to another registry one call at a
 * time in reference order. Fails the build on any refusal, saying what landed.
 */
@Mojo(name = "apply", threadSafe = true, requiresProject = false)
public class ApplyMojo extends RegistryMojo {

    /** A plan saved by {@code plan} ({@code quire.planOutput}); refused if the registry moved since. */
    @Parameter(property = "quire.planFile")
    File planFile;

    /** The change's id in the audit trail; by default the folder's Git commit ({@code git:<sha>}). */
    @Parameter(property = "quire.changeId")
    String changeId;

    /** The change's message in the audit trail; by default the commit's subject line. */
    @Parameter(property = "quire.message")
    String message;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skipped()) {
            return;
        }
        RegistryClient client = client();
        try {
            Plan plan = planFile != null ? Plan.read(planFile.toPath()) : plan(client);
            failOnRefusals(plan);
            PlanApply applier = new PlanApply(client);
            if (planFile != null) {
                List<String> moved = applier.moved(plan);
                if (!moved.isEmpty()) {
                    throw new MojoFailureException("nothing applied: the registry moved since the plan was made:\n  "
                            + String.join("\n  ", moved));
                }
            }
            File folder = planFile != null ? planFile.getAbsoluteFile().getParentFile() : schemaDirectory;
            PlanApply.Result result = applier.apply(plan, ChangeInfo.of(changeId, message, folder.toPath()));
            for (PlanApply.Landed l : result.landed()) {
                getLog().info("applied " + l.change().action().name().toLowerCase().replace('_', ' ') + " "
                        + l.change().subject() + (l.id() == null ? "" : " (id " + l.id() + ", version " + l.version()
                        + ")"));
            }
            if (!result.ok()) {
                throw new MojoFailureException((result.atomic() ? "nothing applied: change set " + result.changeId()
                        + " was refused at " : "stopped at ") + result.failed().subject() + ": " + result.failure());
            }
            getLog().info("applied " + result.landed().size() + " change(s)" + (result.atomic() ? " as change set "
                    + result.changeId() : ""));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot apply to " + registry + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted", e);
        }
    }
}
