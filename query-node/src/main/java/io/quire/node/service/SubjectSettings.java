package io.quire.node.service;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.node.lint.Lint;

/**
 * A subject's effective settings as one registration reads them, resolved once from one view
 * (subject, then context, then registry): the mode the write gates let through, the compatibility
 * level, the normalize flag and the other config fields (data contract defaults and overrides,
 * the compatibility group, {@code validateFields}). The applier re-checks the level the command
 * carries; a round that conflicts resolves them again.
 */
record SubjectSettings(Mode mode, CompatibilityLevel level, boolean normalize, ConfigFields fields) {

    static SubjectSettings of(RegistryView view, Subject subject, Mode mode) {
        return new SubjectSettings(mode, view.config().effectiveLevel(subject), view.config().effectiveNormalize(subject),
                view.config().effectiveFields(subject));
    }

    /** The lint rules new versions are judged by (none unless the config has a {@code lint} object). */
    Lint.Settings lint() {
        return Lint.settingsOrNone(fields.lint());
    }

    /** Whether new versions must keep and respect the reserved fields ({@code validateFields}). */
    boolean validatesFields() {
        return Boolean.TRUE.equals(fields.validateFields());
    }
}
