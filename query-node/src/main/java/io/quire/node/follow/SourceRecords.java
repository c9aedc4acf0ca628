package io.quire.node.follow;

import io.quire.client.RegisterRequest;
import io.quire.journal.command.Command;
import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.Association;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.node.confluent.LogRecord.AssociationRecord;
import io.quire.node.confluent.LogRecord.ClearSubjectRecord;
import io.quire.node.confluent.LogRecord.ConfigRecord;
import io.quire.node.confluent.LogRecord.DeleteSubjectRecord;
import io.quire.node.confluent.LogRecord.ModeRecord;
import io.quire.node.confluent.LogRecord.SchemaRecord;
import io.quire.node.confluent.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one record of a Confluent Schema Registry's {@code _schemas} topic, read by
 * {@link io.quire.node.confluent.ConfluentLogCodec}, asks of Quire given what the view holds now:
 * nothing, a schema to import with its id and version, or journal commands (two for a schema the
 * topic shows only as already deleted, as after compaction). A setting's tombstone removes it; an
 * association's record sets or removes that one association; keys of the DEK registry, contexts and
 * NOOPs change nothing here.
 */
final class SourceRecords {

    /**
     * One step of applying a source record. Its part number is fixed by what it does (a schema's
     * import is part 0, its soft delete part 1; a partial subject delete's steps are numbered by the
     * version they delete), so that a record read again after a restart that stopped half-way resumes
     * at the same part.
     */
    sealed interface Step permits Import, Write {
        int part();
    }

    /** A schema version to import with the source's id and version. */
    record Import(Subject subject, RegisterRequest request) implements Step {
        @Override
        public int part() {
            return 0;
        }
    }

    /** A journal command as it is. */
    record Write(Command command, int part) implements Step {
        Write(Command command) {
            this(command, 0);
        }
    }

    private SourceRecords() {
    }

    /** What the record touches, for ordering: its subject, or the registry's settings. */
    static Object touches(LogRecord record) {
        Subject s = subjectOf(record);
        return s == null ? "(registry)" : s.name();
    }

    /**
     * Whether the record's steps can only be decided once everything sent before is applied: all
     * but a new schema version without references (settings, deletes, tombstones, references).
     */
    static boolean needsSettledView(LogRecord record) {
        return !(record instanceof SchemaRecord s && s.value() != null && s.value().references().isEmpty());
    }

    /** The version a schema record names; null for any other record. */
    static Integer versionOf(LogRecord record) {
        return record instanceof SchemaRecord s ? s.version().number() : null;
    }

    /** What the record asks of Quire, given the view now. */
    static List<Step> steps(RegistryView view, LogRecord record) {
        if (record instanceof SchemaRecord s) {
            return schema(view, s);
        } else if (record instanceof ConfigRecord c) {
            return config(view, c);
        } else if (record instanceof ModeRecord m) {
            return mode(view, m);
        } else if (record instanceof DeleteSubjectRecord d) {
            return deleteSubject(view, d);
        } else if (record instanceof ClearSubjectRecord c) {
            return clearSubject(view, c.subject());
        } else if (record instanceof AssociationRecord a) {
            return association(view, a);
        }
        return List.of(); // contexts, NOOPs, the DEK registry's keys
    }

    private static Subject subjectOf(LogRecord record) {
        if (record instanceof SchemaRecord s) {
            return s.subject();
        } else if (record instanceof ConfigRecord c) {
            return c.subject();
        } else if (record instanceof ModeRecord m) {
            return m.subject();
        } else if (record instanceof DeleteSubjectRecord d) {
            return d.subject();
        } else if (record instanceof ClearSubjectRecord c) {
            return c.subject();
        } else if (record instanceof AssociationRecord a) {
            return a.key().subject();
        }
        return null;
    }

    private static List<Step> schema(RegistryView view, SchemaRecord record) {
        Subject subject = record.subject();
        Version version = record.version();
        Optional<VersionRecord> here = view.version(subject, view.subject(subject).orElse(SubjectRecord.EMPTY), version);
        if (record.value() == null) { // a permanent delete of that version
            return here.isEmpty() ? List.of() : List.of(new Write(new DeleteVersion(subject, version, true)));
        }
        List<Step> steps = new ArrayList<>();
        if (here.isEmpty()) {
            steps.add(new Import(subject, record.value().importRequest(version)));
        }
        boolean liveHere = here.map(v -> !v.deleted()).orElse(true);
        if (record.value().deleted() && liveHere) {
            steps.add(new Write(new DeleteVersion(subject, version, false), 1));
        }
        return steps;
    }

    /**
     * A CONFIG record is the whole config of its subject: what it sets is set, and a field the view
     * holds that the record no longer has is cleared.
     */
    private static List<Step> config(RegistryView view, ConfigRecord record) {
        Subject subject = record.subject();
        if (record.value() == null) {
            boolean has = subject == null ? view.config().globalLevel().isPresent()
                    : view.config().subjectLevel(subject).isPresent();
            return has ? List.of(new Write(new DeleteConfig(subject))) : List.of();
        }
        LogRecord.ConfigValue value = record.value();
        ConfigFields held = subject == null ? view.config().globalFields() : view.config().subjectFields(subject);
        List<String> cleared = new ArrayList<>();
        ConfigFields wanted = value.fields();
        for (String name : ConfigFields.NAMES) {
            if (held != null && held.get(name) != null && wanted.get(name) == null) {
                cleared.add(name);
            }
        }
        if (value.isEmpty() && cleared.isEmpty()) {
            return List.of();
        }
        return List.of(new Write(new SetConfig(subject, value.level(), value.normalize(),
                wanted.isNone() ? null : wanted, cleared)));
    }

    private static List<Step> mode(RegistryView view, ModeRecord record) {
        Subject subject = record.subject();
        if (record.mode() == null) {
            boolean has = subject == null ? view.config().globalMode().isPresent()
                    : view.config().subjectMode(subject).isPresent();
            return has ? List.of(new Write(new DeleteMode(subject))) : List.of();
        }
        return List.of(new Write(new SetMode(subject, record.mode())));
    }

    /**
     * Versions 1 to the record's version are soft-deleted, as Confluent's own reader applies it: the
     * whole subject when that is every live version, else each of them (part: its number).
     */
    private static List<Step> deleteSubject(RegistryView view, DeleteSubjectRecord record) {
        List<Version> covered = new ArrayList<>();
        boolean allLive = true;
        for (VersionRecord v : view.versions(record.subject())) {
            if (!v.deleted()) {
                if (record.covers(v.version())) {
                    covered.add(v.version());
                } else {
                    allLive = false;
                }
            }
        }
        if (covered.isEmpty()) {
            return List.of();
        }
        if (allLive) {
            return List.of(new Write(new DeleteSubject(record.subject(), false)));
        }
        List<Step> steps = new ArrayList<>();
        for (Version v : covered) {
            steps.add(new Write(new DeleteVersion(record.subject(), v, false), v.number()));
        }
        return steps;
    }

    private static List<Step> clearSubject(RegistryView view, Subject subject) {
        for (VersionRecord v : view.versions(subject)) {
            if (v.deleted()) {
                return List.of(new Write(new DeleteSubject(subject, true)));
            }
        }
        return List.of();
    }

    /** One association set (its GUID is the journal's, as for every association) or removed. */
    private static List<Step> association(RegistryView view, AssociationRecord record) {
        LogRecord.AssociationKey key = record.key();
        if (record.value() != null) {
            Association a = record.value();
            return List.of(new Write(new SetAssociations(List.of(new Association(a.subject(), a.resourceName(),
                    a.resourceNamespace(), a.resourceId(), a.resourceType(), a.associationType(), a.lifecycle(),
                    a.frozen())), true)));
        }
        for (Association a : view.associations().subjectAssociations(key.subject())) {
            if (a.resourceName().equals(key.resourceName()) && a.resourceNamespace().equals(key.resourceNamespace())
                    && a.resourceType().equals(key.resourceType()) && a.associationType().equals(key.associationType())) {
                return List.of(new Write(new DeleteAssociations(a.resourceId(), a.resourceType(),
                        List.of(a.associationType()), false)));
            }
        }
        return List.of();
    }
}
