package io.quire.node.service;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.node.error.RegistryException;
import java.util.Optional;

/** {@code GET /config[/{s}]} and {@code GET /mode[/{s}]}. */
public final class SettingsReads {

    private final ViewAccess access;

    public SettingsReads(ViewAccess access) {
        this.access = access;
    }

    public CompatibilityLevel globalLevel() {
        return access.view().config().globalLevel().orElse(CompatibilityLevel.DEFAULT);
    }

    /**
     * The subject's own level; with {@code defaultToGlobal}, the one in force when it has none
     * (its context's, else the registry's).
     */
    public Optional<CompatibilityLevel> subjectLevel(Subject subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        Optional<CompatibilityLevel> own = view.config().subjectLevel(subject);
        return own.isPresent() || !defaultToGlobal ? own : Optional.of(view.config().effectiveLevel(subject));
    }

    public Optional<Boolean> globalNormalize() {
        return access.view().config().globalNormalize();
    }

    /** The subject's own normalize flag; with {@code defaultToGlobal}, its context's or the global one when it has none. */
    public Optional<Boolean> subjectNormalize(Subject subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        Optional<Boolean> own = view.config().subjectNormalize(subject);
        return own.isPresent() || !defaultToGlobal ? own
                : RegistryView.contextSettings(subject).flatMap(view.config()::subjectNormalize)
                        .or(view.config()::globalNormalize);
    }

    public ConfigFields globalFields() {
        return access.view().config().globalFields();
    }

    /** The subject's own other config fields; with {@code defaultToGlobal}, each falls back to the global one. */
    public ConfigFields subjectFields(Subject subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        return defaultToGlobal ? view.config().effectiveFields(subject) : view.config().subjectFields(subject);
    }

    public Mode globalMode() {
        return access.view().config().globalMode().orElse(Mode.DEFAULT);
    }

    public Mode subjectMode(Subject subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        Optional<Mode> own = view.config().subjectMode(subject);
        if (own.isPresent()) {
            return own.get();
        }
        if (defaultToGlobal) {
            return RegistryView.contextSettings(subject).flatMap(view.config()::subjectMode).or(view.config()::globalMode)
                    .orElse(Mode.DEFAULT);
        }
        throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, subject);
    }
}
