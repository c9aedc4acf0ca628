package io.quire.journal.apply;

import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.ConfigDeleted;
import io.quire.journal.outcome.ConfigSet;
import io.quire.journal.outcome.ModeDeleted;
import io.quire.journal.outcome.ModeSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.util.Optional;

/** Compatibility levels, normalize flags and modes, global and per subject. */
final class SettingsRules {

    private SettingsRules() {
    }

    static Outcome setConfig(RegistryView view, ViewWriter out, SetConfig c) {
        if (c.isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_COMPATIBILITY_LEVEL);
        }
        if (c.subject() != null && !Subject.isValid(c.subject())) {
            return Rules.invalidSubject(c.subject());
        }
        if (c.fields() != null) {
            Rejected bad = SchemaRules.invalidRules(c.fields().defaultRuleSet());
            bad = bad != null ? bad : SchemaRules.invalidRules(c.fields().overrideRuleSet());
            if (bad != null) {
                return bad;
            }
        }
        boolean changesFields = c.fields() != null || !c.cleared().isEmpty();
        if (c.subject() == null) {
            if (c.level() != null) {
                out.globalConfig(c.level().name());
            }
            if (c.normalize() != null) {
                out.globalNormalize(c.normalize());
            }
            if (changesFields) {
                out.globalFields(view.config().globalFields().update(c.fields(), c.cleared()));
            }
            return new ConfigSet(c.level() != null ? c.level() : view.config().globalLevel().orElse(CompatibilityLevel.DEFAULT));
        }
        if (c.level() != null) {
            out.subjectConfig(c.subject(), c.level().name());
        }
        if (c.normalize() != null) {
            out.subjectNormalize(c.subject(), c.normalize());
        }
        if (changesFields) {
            out.subjectFields(c.subject(), view.config().subjectFields(c.subject()).update(c.fields(), c.cleared()));
        }
        return new ConfigSet(c.level() != null ? c.level() : view.config().effectiveLevel(c.subject()));
    }

    static Outcome deleteConfig(RegistryView view, ViewWriter out, DeleteConfig c) {
        if (c.subject() == null) {
            CompatibilityLevel previous = view.config().globalLevel().orElse(CompatibilityLevel.DEFAULT);
            out.globalConfig(null);
            out.globalNormalize(null);
            out.globalFields(null);
            return new ConfigDeleted(previous);
        }
        Optional<CompatibilityLevel> own = view.config().subjectLevel(c.subject());
        if (own.isEmpty() && view.config().subjectNormalize(c.subject()).isEmpty()
                && view.config().subjectFields(c.subject()).isNone()) {
            // Confluent's deleteSubjectConfig answers 40401 when there is no config to delete
            return Rejected.of(ErrorCode.SUBJECT_NOT_FOUND, c.subject());
        }
        out.subjectConfig(c.subject(), null);
        out.subjectNormalize(c.subject(), null);
        out.subjectFields(c.subject(), null);
        return new ConfigDeleted(own.orElse(view.config().globalLevel().orElse(CompatibilityLevel.DEFAULT)));
    }

    static Outcome setMode(ViewWriter out, SetMode c) {
        if (c.mode() == null) {
            return Rejected.of(ErrorCode.INVALID_MODE, "missing mode");
        }
        if (c.subject() == null) {
            out.globalMode(c.mode().name());
        } else if (!Subject.isValid(c.subject())) {
            return Rules.invalidSubject(c.subject());
        } else {
            out.subjectMode(c.subject(), c.mode().name());
        }
        return new ModeSet(c.mode());
    }

    static Outcome deleteMode(RegistryView view, ViewWriter out, DeleteMode c) {
        if (c.subject() == null) {
            Mode previous = view.config().globalMode().orElse(Mode.DEFAULT);
            out.globalMode(null);
            return new ModeDeleted(previous);
        }
        Optional<Mode> own = view.config().subjectMode(c.subject());
        if (own.isEmpty()) {
            return Rejected.of(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, c.subject());
        }
        out.subjectMode(c.subject(), null);
        return new ModeDeleted(own.get());
    }
}
