package io.quire.journal.apply;

import io.quire.journal.command.DeleteContext;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.ContextDeleted;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SubjectDeleted;
import io.quire.journal.outcome.VersionDeleted;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.journal.view.ViewWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Soft and permanent deletes of subjects and versions, and the references that protect them. */
final class DeleteRules {

    private DeleteRules() {
    }

    /**
     * A named context goes when no subject of it is left, soft-deleted ones included (42213);
     * the default context stays (42205), an unknown one is 40412. Its settings stay, as a
     * subject's settings stay after the subject goes.
     */
    static Outcome deleteContext(RegistryView view, ViewWriter out, DeleteContext c) {
        Rejected refused = contextRefusal(view, c.context());
        if (refused != null) {
            return refused;
        }
        out.deleteContext(c.context());
        return new ContextDeleted(c.context());
    }

    /** Why a context may not be deleted now, or null. The edge runs the same check before journaling. */
    static Rejected contextRefusal(RegistryView view, Context context) {
        if (context == null || context.isDefault()) {
            return Rules.notPermitted("The default context cannot be deleted");
        }
        if (!view.hasContext(context)) {
            return Rejected.of(ErrorCode.CONTEXT_NOT_FOUND, context);
        }
        if (view.scans().hasSubjects(context)) {
            return Rejected.of(ErrorCode.CONTEXT_NOT_EMPTY, context);
        }
        return null;
    }

    /**
     * A refusal when a schema references this subject version (Confluent's 42206); null when none
     * does. As Confluent's {@code deleteSchemaVersion} and {@code deleteSubject}: a soft delete
     * counts the referrers that a live version uses, a permanent one those that any version uses;
     * a subject's own versions ({@code except}: the subject being deleted, or null) don't count.
     * The edge runs the same check before journaling.
     */
    public static Rejected referenced(RegistryView view, Subject subject, Version version, boolean permanent,
                                      Subject except) {
        List<SchemaId> by = view.usages().referrers(subject, version, permanent, except);
        if (by.isEmpty()) {
            return null;
        }
        return new Rejected(ErrorCode.REFERENCE_EXISTS, ErrorCode.REFERENCE_EXISTS.message(
                "subject=" + subject + ",version=" + version) + " Referenced by ids " + by + ".");
    }

    /** A refusal when the subject is associated with a resource (40904: remove the associations first); null otherwise. */
    static Rejected associated(RegistryView view, Subject s) {
        return view.associations().subjectAssociations(s).isEmpty() ? null
                : Rejected.of(ErrorCode.ASSOCIATION_FOR_SUBJECT_EXISTS, s);
    }

    /** Why nothing of subject {@code s} may be deleted (its name, its mode, its absence); null when it may. */
    private static Rejected deletable(RegistryView view, Subject s) {
        if (!Subject.isValid(s)) {
            return Rules.invalidSubject(s);
        }
        if (!view.config().effectiveMode(s).allowsWrites()) {
            return Rules.readOnly(s);
        }
        return view.subject(s).isEmpty() ? Rejected.of(ErrorCode.SUBJECT_NOT_FOUND, s) : null;
    }

    static Outcome deleteSubject(RegistryView view, ViewWriter out, Offset offset, DeleteSubject c) {
        Subject s = c.subject();
        Rejected refused = deletable(view, s);
        if (refused != null) {
            return refused;
        }
        Rejected associated = associated(view, s);
        if (associated != null) {
            return associated;
        }
        SubjectRecord subject = view.subject(s).orElseThrow();
        List<VersionRecord> versions = view.versions(s);
        List<Version> removed = new ArrayList<>();
        if (!c.permanent()) {
            if (subject.softDeleted()) {
                return Rejected.of(ErrorCode.SUBJECT_SOFT_DELETED, s);
            }
            for (VersionRecord v : versions) {
                Rejected inUse = v.deleted() ? null : referenced(view, s, v.version(), false, s);
                if (inUse != null) {
                    return inUse;
                }
            }
            for (VersionRecord v : versions) {
                if (!v.deleted()) {
                    out.version(s, v.softDeleted());
                    removed.add(v.version());
                }
            }
            out.subject(s, new SubjectRecord(subject.latestVersion(), 0, subject.totalVersions(), offset));
            return new SubjectDeleted(removed);
        }
        for (VersionRecord v : versions) { // references first, as Confluent's deleteSubject checks them
            Rejected inUse = referenced(view, s, v.version(), true, s);
            if (inUse != null) {
                return inUse;
            }
        }
        if (!subject.softDeleted()) {
            return Rejected.of(ErrorCode.SUBJECT_NOT_SOFT_DELETED, s);
        }
        for (VersionRecord v : versions) {
            out.deleteVersion(s, v);
            removed.add(v.version());
        }
        out.deleteSubject(s);
        return new SubjectDeleted(removed);
    }

    /**
     * Why a subject may not be erased at once, soft and permanent delete together (its mode, a
     * schema in use that references one of its versions); null when it may. A subject already gone
     * may be.
     */
    static Rejected erasable(RegistryView view, Subject s) {
        if (view.subject(s).isEmpty()) {
            return null;
        }
        if (!view.config().effectiveMode(s).allowsWrites()) {
            return Rules.readOnly(s);
        }
        for (VersionRecord v : view.versions(s)) {
            Rejected inUse = referenced(view, s, v.version(), true, s);
            if (inUse != null) {
                return inUse;
            }
        }
        return null;
    }

    /** Removes a subject and every version of it, as a soft delete followed by a permanent one would. */
    static void erase(RegistryView view, ViewWriter out, Subject s) {
        for (VersionRecord v : view.versions(s)) {
            out.deleteVersion(s, v);
        }
        if (view.subject(s).isPresent()) {
            out.deleteSubject(s);
        }
    }

    static Outcome deleteVersion(RegistryView view, ViewWriter out, Offset offset, DeleteVersion c) {
        Subject s = c.subject();
        Rejected refused = deletable(view, s);
        if (refused != null) {
            return refused;
        }
        SubjectRecord subject = view.subject(s).orElseThrow();
        Optional<VersionRecord> version = c.version() != null && c.version().exists() ? view.version(s, c.version())
                : Optional.empty();
        if (version.isEmpty()) {
            return Rejected.of(ErrorCode.VERSION_NOT_FOUND, c.version());
        }
        VersionRecord v = version.get();
        if (!c.permanent()) {
            if (v.deleted()) {
                return Rejected.of(ErrorCode.VERSION_SOFT_DELETED, s, v.version());
            }
            if (subject.liveVersions() == 1 && associated(view, s) != null) {
                // as Confluent's deleteSchemaVersion: an associated subject keeps an active version
                return Rejected.of(ErrorCode.NO_ACTIVE_SUBJECT_VERSION, s);
            }
            Rejected inUse = referenced(view, s, v.version(), false, null);
            if (inUse != null) {
                return inUse;
            }
            out.version(s, v.softDeleted());
            out.subject(s, new SubjectRecord(subject.latestVersion(), subject.liveVersions() - 1,
                    subject.totalVersions(), offset));
            return new VersionDeleted(v.version());
        }
        Rejected inUse = referenced(view, s, v.version(), true, null); // before 40407, as Confluent's order
        if (inUse != null) {
            return inUse;
        }
        if (!v.deleted()) {
            return Rejected.of(ErrorCode.VERSION_NOT_SOFT_DELETED, s, v.version());
        }
        out.deleteVersion(s, v);
        if (subject.totalVersions() == 1) {
            out.deleteSubject(s);
        } else {
            Version latest = Version.NONE;
            for (VersionRecord other : view.versions(s)) {
                if (!other.version().equals(v.version())) {
                    latest = Version.max(latest, other.version());
                }
            }
            out.subject(s, new SubjectRecord(latest, subject.liveVersions(), subject.totalVersions() - 1, offset));
        }
        return new VersionDeleted(v.version());
    }
}
