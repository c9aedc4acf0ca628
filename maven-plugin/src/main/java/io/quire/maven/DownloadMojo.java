package io.quire.maven;

import io.quire.client.plan.DesiredSubject;
import io.quire.client.plan.Dump;
import io.quire.client.plan.SchemaFolder;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Writes the registry's live subjects into a folder in the folder format (the latest version of
 * each, references pinned, the subject's own settings): a plan of the download changes nothing.
 */
@Mojo(name = "download", defaultPhase = LifecyclePhase.GENERATE_RESOURCES, threadSafe = true,
        requiresProject = false)
public class DownloadMojo extends RegistryMojo {

    /** Where the subjects are written. */
    @Parameter(property = "quire.outputDirectory", defaultValue = "${project.build.directory}/schemas")
    File outputDirectory;

    /** Only subjects under this prefix ({@code :.eu:} for a context); every subject by default. */
    @Parameter(property = "quire.subjectPrefix", defaultValue = "")
    String subjectPrefix;

    /** Regular expressions a subject's whole name must match one of; every subject by default. */
    @Parameter
    List<String> subjectPatterns;

    @Override
    public void execute() throws MojoExecutionException {
        if (skipped()) {
            return;
        }
        List<Pattern> patterns = subjectPatterns == null ? List.of()
                : subjectPatterns.stream().map(Pattern::compile).toList();
        try {
            List<DesiredSubject> subjects = new Dump(client()).subjects(subjectPrefix == null ? "" : subjectPrefix)
                    .stream().filter(s -> patterns.isEmpty() || patterns.stream().anyMatch(p -> p.matcher(s.subject())
                            .matches())).toList();
            SchemaFolder.write(outputDirectory.toPath(), subjects);
            getLog().info("downloaded " + subjects.size() + " subject(s) into " + outputDirectory);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot download from " + registry + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted", e);
        }
    }
}
