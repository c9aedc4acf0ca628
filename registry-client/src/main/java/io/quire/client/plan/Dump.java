package io.quire.client.plan;

import io.quire.client.ConfigAnswer;
import io.quire.client.RegistryClient;
import io.quire.client.SchemaVersion;
import io.quire.client.plan.DesiredSubject.DesiredReference;
import io.quire.journal.model.SchemaReference;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A registry's live state in the folder format: each subject's latest live version with its
 * references pinned to the versions they name, and the subject's own compatibility level and
 * normalize flag where it has them. A plan of the dump against the same registry changes nothing.
 */
public final class Dump {

    private final RegistryClient registry;

    public Dump(RegistryClient registry) {
        this.registry = registry;
    }

    /** The subjects under {@code prefix} (empty: every subject, in every context). */
    public List<DesiredSubject> subjects(String prefix) throws IOException, InterruptedException {
        List<DesiredSubject> out = new ArrayList<>();
        for (String subject : registry.subjects(false)) {
            if (!subject.startsWith(prefix)) {
                continue;
            }
            Optional<SchemaVersion> latest = registry.version(subject, "latest", false);
            if (latest.isEmpty()) {
                continue; // deleted since it was listed
            }
            SchemaVersion v = latest.get();
            List<DesiredReference> refs = new ArrayList<>();
            for (SchemaReference r : v.referencesOrEmpty()) {
                refs.add(new DesiredReference(r.name(), r.subject().name(), Integer.toString(r.version().number())));
            }
            Optional<ConfigAnswer> own = registry.config(subject);
            out.add(new DesiredSubject(subject, v.typeOrAvro(), v.schema(), refs,
                    own.map(ConfigAnswer::compatibilityLevel).orElse(null), own.map(ConfigAnswer::normalize).orElse(null),
                    v.metadata(), v.ruleSet(), SchemaFolder.fileOf(subject, v.typeOrAvro()).toString()));
        }
        return out;
    }

    /** Writes the subjects under {@code prefix} into {@code dir}; answers how many. */
    public int into(Path dir, String prefix) throws IOException, InterruptedException {
        List<DesiredSubject> subjects = subjects(prefix);
        SchemaFolder.write(dir, subjects);
        return subjects.size();
    }
}
