package io.quire.journal.view;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;
import java.util.Optional;

/**
 * Compatibility levels, normalize flags, other config fields and modes: each of a subject, of its
 * context, of the registry, and the one in force. Part of {@link RegistryView}, which answers with it.
 */
public final class ConfigReads {

    private final KvReader kv;

    ConfigReads(KvReader kv) {
        this.kv = kv;
    }

    public Optional<CompatibilityLevel> globalLevel() {
        return Optional.ofNullable(kv.get(Keys.GLOBAL_CONFIG)).map(b -> CompatibilityLevel.valueOf(RegistryView.text(b)));
    }

    public Optional<CompatibilityLevel> subjectLevel(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subjectConfig(subject))).map(b -> CompatibilityLevel.valueOf(RegistryView.text(b)));
    }

    /** The subject's level, else its context's ({@code :.ctx:}), else the registry's, else the default. */
    public CompatibilityLevel effectiveLevel(Subject subject) {
        return subjectLevel(subject).or(() -> RegistryView.contextSettings(subject).flatMap(this::subjectLevel))
                .or(this::globalLevel).orElse(CompatibilityLevel.DEFAULT);
    }

    public Optional<Boolean> globalNormalize() {
        return Optional.ofNullable(kv.get(Keys.GLOBAL_NORMALIZE)).map(b -> Boolean.parseBoolean(RegistryView.text(b)));
    }

    public Optional<Boolean> subjectNormalize(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subjectNormalize(subject))).map(b -> Boolean.parseBoolean(RegistryView.text(b)));
    }

    /** Whether schemas registered under the subject are normalised (its flag, else the global one, else no). */
    public boolean effectiveNormalize(Subject subject) {
        return subjectNormalize(subject).or(() -> RegistryView.contextSettings(subject).flatMap(this::subjectNormalize))
                .or(this::globalNormalize).orElse(false);
    }

    /** The registry's other config fields (none set: {@link ConfigFields#NONE}). */
    public ConfigFields globalFields() {
        return fields(kv.get(Keys.GLOBAL_FIELDS));
    }

    /** A subject's own other config fields (none set: {@link ConfigFields#NONE}). */
    public ConfigFields subjectFields(Subject subject) {
        return fields(kv.get(Keys.subjectFields(subject)));
    }

    /** The fields in force for a subject: each its own, else its context's, else the registry's. */
    public ConfigFields effectiveFields(Subject subject) {
        ConfigFields below = globalFields();
        Optional<Subject> context = RegistryView.contextSettings(subject);
        if (context.isPresent()) {
            below = subjectFields(context.get()).orElse(below);
        }
        return subjectFields(subject).orElse(below);
    }

    public Optional<Mode> globalMode() {
        return Optional.ofNullable(kv.get(Keys.GLOBAL_MODE)).map(b -> Mode.valueOf(RegistryView.text(b)));
    }

    public Optional<Mode> subjectMode(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subjectMode(subject))).map(b -> Mode.valueOf(RegistryView.text(b)));
    }

    public Mode effectiveMode(Subject subject) {
        Optional<Mode> global = globalMode();
        if (global.isPresent() && global.get() == Mode.READONLY_OVERRIDE) {
            return Mode.READONLY_OVERRIDE;
        }
        return subjectMode(subject).or(() -> RegistryView.contextSettings(subject).flatMap(this::subjectMode))
                .or(() -> global).orElse(Mode.DEFAULT);
    }

    private static ConfigFields fields(byte[] b) {
        if (b == null) {
            return ConfigFields.NONE;
        }
        try {
            return Json.MAPPER.readValue(b, ConfigFields.class);
        } catch (java.io.IOException e) {
            throw new CorruptRecordException("cannot decode config fields", e);
        }
    }
}
