package io.quire.node.service;

import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.LintConfig;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.ConfigDeleted;
import io.quire.journal.outcome.ConfigSet;
import io.quire.journal.outcome.ModeDeleted;
import io.quire.journal.outcome.ModeSet;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.lint.Lint;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** {@code PUT|DELETE /config[/{s}]} and {@code PUT|DELETE /mode[/{s}]}. */
public final class SettingsWrites {

    private final ViewAccess access;
    private final WritePath path;

    SettingsWrites(ViewAccess access, WritePath path) {
        this.access = access;
        this.path = path;
    }

    public CompletableFuture<Written<CompatibilityLevel>> setConfig(Subject subject, String level, Boolean normalize,
                                                                    Principal principal) {
        return setConfig(subject, level, normalize, null, List.of(), principal);
    }

    /**
     * Sets any subset of the config: the level (Confluent's names, any case), the normalize flag,
     * the other fields ({@code fields}, null ones untouched) and clears the {@code cleared} ones.
     * Nothing at all is 42203, as Confluent answers; a default or override rule set that breaks the
     * rules for rule sets is 42210.
     */
    public CompletableFuture<Written<CompatibilityLevel>> setConfig(Subject subject, String level, Boolean normalize,
                                                                    ConfigFields fields, List<String> cleared,
                                                                    Principal principal) {
        if (subject != null) {
            WritePath.validSubject(subject);
        }
        return path.submit(setConfigCommand(subject, level, normalize, fields, cleared), principal, ConfigSet.class,
                ConfigSet::level);
    }

    /**
     * The command of a config update, checked as {@code PUT /config} checks it (a change set's config
     * steps too): nothing at all is 42203, a default or override rule set that breaks the rules for
     * rule sets 42210, a lint config that would not run 422.
     */
    static SetConfig setConfigCommand(Subject subject, String level, Boolean normalize, ConfigFields fields,
                                      List<String> cleared) {
        boolean others = normalize != null || (fields != null && !fields.isNone()) || !cleared.isEmpty();
        CompatibilityLevel parsed = level == null && others ? null : CompatibilityLevel.parse(level)
                .orElseThrow(() -> RegistryException.of(ErrorCode.INVALID_COMPATIBILITY_LEVEL));
        if (fields != null) {
            DataContract.validRules(fields.defaultRuleSet());
            DataContract.validRules(fields.overrideRuleSet());
            validLint(fields.lint());
        }
        return new SetConfig(subject, parsed, normalize, fields == null || fields.isNone() ? null : fields, cleared);
    }

    /** The settings a lint config gives; 422 naming what is wrong when it would not run (an unknown rule, profile, action or pattern). */
    static Lint.Settings validLint(LintConfig lint) {
        try {
            return Lint.settings(lint);
        } catch (IllegalArgumentException e) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "Invalid lint config: " + e.getMessage());
        }
    }

    public CompletableFuture<Written<CompatibilityLevel>> deleteConfig(Subject subject, Principal principal) {
        RegistryView view = access.view();
        if (subject == null && view.config().globalLevel().isEmpty() && view.config().globalNormalize().isEmpty()
                && view.config().globalFields().isNone()) {
            // Already the default: nothing to change, nothing to journal.
            return CompletableFuture.completedFuture(new Written<>(CompatibilityLevel.DEFAULT, view.position().offset()));
        }
        return path.submit(new DeleteConfig(subject), principal, ConfigDeleted.class, ConfigDeleted::previous);
    }

    /**
     * Switching to IMPORT needs an empty registry (global) or subject unless {@code force}: ids kept
     * from another registry could otherwise collide with the ones already handed out here.
     */
    public CompletableFuture<Written<Mode>> setMode(Subject subject, String mode, boolean force, Principal principal) {
        if (subject != null) {
            WritePath.validSubject(subject);
        }
        Mode parsed = Mode.parse(mode).orElseThrow(() -> RegistryException.of(ErrorCode.INVALID_MODE,
                "Valid values are READWRITE, READONLY, READONLY_OVERRIDE, IMPORT"));
        RegistryView view = access.view();
        if (parsed == Mode.IMPORT && !force) {
            boolean alreadyImport = subject == null ? view.config().globalMode().orElse(Mode.DEFAULT) == Mode.IMPORT
                    : view.config().effectiveMode(subject) == Mode.IMPORT;
            boolean hasSchemas = subject == null ? view.scans().hasSubjects() : view.subject(subject).isPresent();
            if (!alreadyImport && hasSchemas) {
                throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED,
                        "Cannot import since found existing subjects; set force=true to import anyway");
            }
        }
        return path.submit(new SetMode(subject, parsed), principal, ModeSet.class, ModeSet::mode);
    }

    public CompletableFuture<Written<Mode>> deleteMode(Subject subject, Principal principal) {
        if (subject != null && access.view().config().subjectMode(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, subject);
        }
        return path.submit(new DeleteMode(subject), principal, ModeDeleted.class, ModeDeleted::previous);
    }
}
