package io.quire.journal.apply;

import io.quire.ids.BlockGrants;
import io.quire.ids.IdBlock;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Command;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.ConfigDeleted;
import io.quire.journal.outcome.ConfigSet;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.ModeDeleted;
import io.quire.journal.outcome.ModeSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.SubjectDeleted;
import io.quire.journal.outcome.VersionDeleted;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.Changes;
import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.journal.view.ViewWriter;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pure applier: {@code (view, offset, command) -> (changes, outcome)}. No clock, no randomness,
 * no I/O; it only re-checks the preconditions the edge carried and does O(1) work per command
 * (deletes touch the versions of one subject). Replaying the same journal yields the same view and
 * the same digest on every node. Idempotent by offset: a record at or below the applied offset is
 * skipped, which is what makes replay after a crash safe.
 */
public final class Applier {

    public ApplyResult apply(RegistryView view, long offset, Envelope envelope) {
        Position current = view.position();
        if (offset <= current.offset()) {
            return ApplyResult.skipped(current);
        }
        ViewWriter out = new ViewWriter(new Changes());
        Outcome outcome = decide(view, out, offset, envelope.command());
        return finish(out, current, offset, envelope, outcome);
    }

    /** A record the codec cannot read, applied as a counted rejection when skipping is configured. */
    public ApplyResult applyUnreadable(RegistryView view, long offset, String reason) {
        Position current = view.position();
        if (offset <= current.offset()) {
            return ApplyResult.skipped(current);
        }
        Outcome outcome = new Rejected(ErrorCode.STORE_ERROR, ErrorCode.STORE_ERROR.message("unreadable journal record: " + reason));
        return finish(new ViewWriter(new Changes()), current, offset, null, outcome);
    }

    private ApplyResult finish(ViewWriter out, Position current, long offset, Envelope envelope, Outcome outcome) {
        if (!outcome.accepted()) {
            out = new ViewWriter(new Changes()); // a refused command changes nothing but the position
        }
        String commandId = envelope == null ? "unreadable@" + offset : envelope.commandId();
        byte[] record = JournalCodec.encodeOutcome(commandId, outcome);
        byte[] covered = current.digestVersion() == 1 ? record : JournalCodec.encodeDigestForm(commandId, outcome);
        Position next = new Position(offset, chain(current.digest(), offset, covered), current.digestVersion());
        out.outcome(offset, record);
        out.audit(AuditEntry.of(offset, envelope, outcome));
        out.position(next);
        return new ApplyResult(out.changes(), outcome, next, false);
    }

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    static byte[] chain(byte[] previous, long offset, byte[] outcomeRecord) {
        MessageDigest sha = SHA256.get(); // digest() resets it for the next use
        sha.update(previous);
        sha.update(ByteBuffer.allocate(8).putLong(offset).array());
        sha.update(outcomeRecord);
        return sha.digest();
    }

    private Outcome decide(RegistryView view, ViewWriter out, long offset, Command command) {
        return switch (command.type()) {
            case REGISTER_SCHEMA -> register(view, out, offset, (RegisterSchema) command);
            case DELETE_SUBJECT -> deleteSubject(view, out, offset, (DeleteSubject) command);
            case DELETE_VERSION -> deleteVersion(view, out, offset, (DeleteVersion) command);
            case SET_CONFIG -> setConfig(view, out, (SetConfig) command);
            case DELETE_CONFIG -> deleteConfig(view, out, (DeleteConfig) command);
            case SET_MODE -> setMode(out, (SetMode) command);
            case DELETE_MODE -> deleteMode(view, out, (DeleteMode) command);
            case LEASE_ID_BLOCK -> lease(view, out, (LeaseIdBlock) command);
            case IMPORT_SCHEMA -> importSchema(view, out, offset, (ImportSchema) command);
        };
    }

    private Outcome register(RegistryView view, ViewWriter out, long offset, RegisterSchema c) {
        String s = c.subject();
        if (!Subject.isValid(s)) {
            return invalidSubject(s);
        }
        if (c.schema() == null || c.fingerprint() == null || c.schemaType() == null || c.checkedLevel() == null) {
            return new Rejected(ErrorCode.INVALID_SCHEMA, ErrorCode.INVALID_SCHEMA.message("(incomplete command)"));
        }
        Mode mode = view.effectiveMode(s);
        if (!mode.allowsWrites()) {
            return readOnly(s);
        }
        if (mode == Mode.IMPORT) {
            return notPermitted("Subject " + s + " is in import mode: registrations must give an id");
        }
        Optional<Long> existing = view.idForFingerprint(c.fingerprint());
        Optional<SubjectRecord> subject = view.subject(s);
        if (existing.isPresent()) {
            for (int v : view.versionsWithId(s, existing.get())) {
                if (view.version(s, v).map(r -> !r.deleted()).orElse(false)) {
                    return new SchemaRegistered(existing.get(), v, false);
                }
            }
        }
        CompatibilityLevel level = view.effectiveLevel(s);
        if (level != c.checkedLevel()) {
            return new Conflict("compatibility level of '" + s + "' is now " + level);
        }
        long revision = subject.map(SubjectRecord::revision).orElse(SubjectRecord.ABSENT);
        if (level != CompatibilityLevel.NONE && revision != c.checkedRevision()) {
            return new Conflict("subject '" + s + "' changed since the compatibility check");
        }
        long id;
        if (existing.isPresent()) {
            id = existing.get();
        } else {
            id = c.proposedId();
            if (id < BlockGrants.FIRST_ID || id >= view.idWatermark()) {
                return new Rejected(ErrorCode.OPERATION_NOT_PERMITTED,
                        ErrorCode.OPERATION_NOT_PERMITTED.message("id " + id + " was never leased"));
            }
            if (view.schemaBytes(id) != null) {
                return new Conflict("id " + id + " is taken");
            }
            Rejected missing = missingReference(view, c.references());
            if (missing != null) {
                return missing;
            }
            writeSchema(out, id, c.schemaType(), c.schema(), c.references(), c.fingerprint());
        }
        SubjectRecord before = subject.orElse(new SubjectRecord(0, 0, 0, SubjectRecord.ABSENT));
        int version = before.latestVersion() + 1;
        out.version(s, new VersionRecord(version, id, false));
        out.subject(s, new SubjectRecord(version, before.liveVersions() + 1, before.totalVersions() + 1, offset));
        return new SchemaRegistered(id, version, true);
    }

    /**
     * IMPORT mode: the id and version come from the command. Content keeps one id (42207 when it
     * has another), an id keeps one content and a version one id (42205 otherwise); the id
     * watermark moves above the id, so no block ever granted later contains it. A node holding an
     * older block that contains it gets a conflict for that id and takes the next one.
     */
    private Outcome importSchema(RegistryView view, ViewWriter out, long offset, ImportSchema c) {
        String s = c.subject();
        if (!Subject.isValid(s)) {
            return invalidSubject(s);
        }
        if (c.schema() == null || c.fingerprint() == null || c.schemaType() == null) {
            return new Rejected(ErrorCode.INVALID_SCHEMA, ErrorCode.INVALID_SCHEMA.message("(incomplete command)"));
        }
        if (view.effectiveMode(s) != Mode.IMPORT) {
            return notPermitted("Subject " + s + " is not in import mode");
        }
        if (c.id() < BlockGrants.FIRST_ID || c.id() > Integer.MAX_VALUE || c.version() < 0) {
            return notPermitted("id " + c.id() + " and version " + c.version() + " must be positive 32-bit numbers");
        }
        Rejected clash = importedIdClash(view, c.fingerprint(), c.id());
        if (clash != null) {
            return clash;
        }
        Optional<Long> existing = view.idForFingerprint(c.fingerprint());
        Optional<SubjectRecord> subject = view.subject(s);
        SubjectRecord before = subject.orElse(new SubjectRecord(0, 0, 0, SubjectRecord.ABSENT));
        int version = c.version();
        if (version == 0) {
            for (int v : view.versionsWithId(s, c.id())) {
                if (view.version(s, v).map(r -> !r.deleted()).orElse(false)) {
                    return new SchemaRegistered(c.id(), v, false);
                }
            }
            if (before.latestVersion() == Integer.MAX_VALUE) {
                return notPermitted("subject " + s + " has no version number left");
            }
            version = before.latestVersion() + 1;
        }
        Optional<VersionRecord> taken = view.version(s, version);
        if (taken.isPresent()) {
            if (taken.get().schemaId() == c.id()) {
                return new SchemaRegistered(c.id(), version, false); // already imported (and maybe soft-deleted since)
            }
            return notPermitted("Version " + version + " of subject " + s + " already exists with id "
                    + taken.get().schemaId());
        }
        if (existing.isEmpty()) {
            Rejected missing = missingReference(view, c.references());
            if (missing != null) {
                return missing;
            }
            writeSchema(out, c.id(), c.schemaType(), c.schema(), c.references(), c.fingerprint());
        }
        if (c.id() >= view.idWatermark()) {
            out.idWatermark(c.id() + 1);
        }
        out.version(s, new VersionRecord(version, c.id(), false));
        out.subject(s, new SubjectRecord(Math.max(before.latestVersion(), version), before.liveVersions() + 1,
                before.totalVersions() + 1, offset));
        return new SchemaRegistered(c.id(), version, true);
    }

    /**
     * A refusal when an imported id and content disagree with the view: the content is known under
     * another id (42207), or the id holds other content (42205); null when they agree. The edge
     * runs the same check before journaling.
     */
    public static Rejected importedIdClash(RegistryView view, String fingerprint, long id) {
        Optional<Long> existing = view.idForFingerprint(fingerprint);
        if (existing.isPresent() && existing.get() != id) {
            return new Rejected(ErrorCode.ID_DOES_NOT_MATCH, ErrorCode.ID_DOES_NOT_MATCH.message(
                    "Schema already registered with id " + existing.get() + " instead of input id " + id));
        }
        if (existing.isEmpty() && view.schemaBytes(id) != null) {
            return notPermitted("Overwrite new schema with id " + id + " is not permitted.");
        }
        return null;
    }

    /** A refusal when a reference names a subject version that is not there (deleted since the edge looked). */
    private static Rejected missingReference(RegistryView view, List<SchemaReference> references) {
        for (SchemaReference r : references) {
            if (r.subject() == null || view.version(r.subject(), r.version()).map(v -> v.deleted()).orElse(true)) {
                return new Rejected(ErrorCode.INVALID_SCHEMA, ErrorCode.INVALID_SCHEMA.message("reference " + r.name()
                        + " to subject " + r.subject() + " version " + r.version() + " does not exist"));
            }
        }
        return null;
    }

    private static void writeSchema(ViewWriter out, long id, SchemaType type, String schema,
                                    List<SchemaReference> references, String fingerprint) {
        out.schema(id, new StoredSchema(schema, type, references), fingerprint);
        for (SchemaReference r : references) {
            out.reference(r.subject(), r.version(), id);
        }
    }

    /**
     * A refusal when a schema still in use references this subject version (Confluent's 42206);
     * null when none does. The edge runs the same check before journaling a permanent delete.
     */
    public static Rejected referenced(RegistryView view, String subject, int version) {
        List<Long> by = view.referencedBy(subject, version);
        if (by.isEmpty()) {
            return null;
        }
        return new Rejected(ErrorCode.REFERENCE_EXISTS, ErrorCode.REFERENCE_EXISTS.message(
                "subject=" + subject + ",version=" + version) + " Referenced by ids " + by + ".");
    }

    private Outcome deleteSubject(RegistryView view, ViewWriter out, long offset, DeleteSubject c) {
        String s = c.subject();
        if (!Subject.isValid(s)) {
            return invalidSubject(s);
        }
        if (!view.effectiveMode(s).allowsWrites()) {
            return readOnly(s);
        }
        Optional<SubjectRecord> found = view.subject(s);
        if (found.isEmpty()) {
            return new Rejected(ErrorCode.SUBJECT_NOT_FOUND, ErrorCode.SUBJECT_NOT_FOUND.message(s));
        }
        SubjectRecord subject = found.get();
        List<VersionRecord> versions = view.versions(s);
        List<Integer> removed = new ArrayList<>();
        if (!c.permanent()) {
            if (subject.softDeleted()) {
                return new Rejected(ErrorCode.SUBJECT_SOFT_DELETED, ErrorCode.SUBJECT_SOFT_DELETED.message(s));
            }
            for (VersionRecord v : versions) {
                if (!v.deleted()) {
                    out.version(s, new VersionRecord(v.version(), v.schemaId(), true));
                    removed.add(v.version());
                }
            }
            out.subject(s, new SubjectRecord(subject.latestVersion(), 0, subject.totalVersions(), offset));
            return new SubjectDeleted(removed);
        }
        if (!subject.softDeleted()) {
            return new Rejected(ErrorCode.SUBJECT_NOT_SOFT_DELETED, ErrorCode.SUBJECT_NOT_SOFT_DELETED.message(s));
        }
        for (VersionRecord v : versions) {
            Rejected inUse = referenced(view, s, v.version());
            if (inUse != null) {
                return inUse;
            }
        }
        for (VersionRecord v : versions) {
            out.deleteVersion(s, v);
            removed.add(v.version());
        }
        out.deleteSubject(s);
        return new SubjectDeleted(removed);
    }

    private Outcome deleteVersion(RegistryView view, ViewWriter out, long offset, DeleteVersion c) {
        String s = c.subject();
        if (!Subject.isValid(s)) {
            return invalidSubject(s);
        }
        if (!view.effectiveMode(s).allowsWrites()) {
            return readOnly(s);
        }
        Optional<SubjectRecord> found = view.subject(s);
        if (found.isEmpty()) {
            return new Rejected(ErrorCode.SUBJECT_NOT_FOUND, ErrorCode.SUBJECT_NOT_FOUND.message(s));
        }
        SubjectRecord subject = found.get();
        Optional<VersionRecord> version = c.version() >= 1 ? view.version(s, c.version()) : Optional.empty();
        if (version.isEmpty()) {
            return new Rejected(ErrorCode.VERSION_NOT_FOUND, ErrorCode.VERSION_NOT_FOUND.message(c.version()));
        }
        VersionRecord v = version.get();
        if (!c.permanent()) {
            if (v.deleted()) {
                return new Rejected(ErrorCode.VERSION_SOFT_DELETED,
                        ErrorCode.VERSION_SOFT_DELETED.message(s, v.version()));
            }
            out.version(s, new VersionRecord(v.version(), v.schemaId(), true));
            out.subject(s, new SubjectRecord(subject.latestVersion(), subject.liveVersions() - 1,
                    subject.totalVersions(), offset));
            return new VersionDeleted(v.version());
        }
        if (!v.deleted()) {
            return new Rejected(ErrorCode.VERSION_NOT_SOFT_DELETED,
                    ErrorCode.VERSION_NOT_SOFT_DELETED.message(s, v.version()));
        }
        Rejected inUse = referenced(view, s, v.version());
        if (inUse != null) {
            return inUse;
        }
        out.deleteVersion(s, v);
        if (subject.totalVersions() == 1) {
            out.deleteSubject(s);
        } else {
            int latest = 0;
            for (VersionRecord other : view.versions(s)) {
                if (other.version() != v.version()) {
                    latest = Math.max(latest, other.version());
                }
            }
            out.subject(s, new SubjectRecord(latest, subject.liveVersions(), subject.totalVersions() - 1, offset));
        }
        return new VersionDeleted(v.version());
    }

    private Outcome setConfig(RegistryView view, ViewWriter out, SetConfig c) {
        if (c.level() == null && c.normalize() == null) {
            return new Rejected(ErrorCode.INVALID_COMPATIBILITY_LEVEL, ErrorCode.INVALID_COMPATIBILITY_LEVEL.message());
        }
        if (c.subject() != null && !Subject.isValid(c.subject())) {
            return invalidSubject(c.subject());
        }
        if (c.subject() == null) {
            if (c.level() != null) {
                out.globalConfig(c.level().name());
            }
            if (c.normalize() != null) {
                out.globalNormalize(c.normalize());
            }
            return new ConfigSet(c.level() != null ? c.level() : view.globalLevel().orElse(CompatibilityLevel.DEFAULT));
        }
        if (c.level() != null) {
            out.subjectConfig(c.subject(), c.level().name());
        }
        if (c.normalize() != null) {
            out.subjectNormalize(c.subject(), c.normalize());
        }
        return new ConfigSet(c.level() != null ? c.level() : view.effectiveLevel(c.subject()));
    }

    private Outcome deleteConfig(RegistryView view, ViewWriter out, DeleteConfig c) {
        if (c.subject() == null) {
            CompatibilityLevel previous = view.globalLevel().orElse(CompatibilityLevel.DEFAULT);
            out.globalConfig(null);
            out.globalNormalize(null);
            return new ConfigDeleted(previous);
        }
        Optional<CompatibilityLevel> own = view.subjectLevel(c.subject());
        if (own.isEmpty() && view.subjectNormalize(c.subject()).isEmpty()) {
            return new Rejected(ErrorCode.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED,
                    ErrorCode.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED.message(c.subject()));
        }
        out.subjectConfig(c.subject(), null);
        out.subjectNormalize(c.subject(), null);
        return new ConfigDeleted(own.orElse(view.globalLevel().orElse(CompatibilityLevel.DEFAULT)));
    }

    private Outcome setMode(ViewWriter out, SetMode c) {
        if (c.mode() == null) {
            return new Rejected(ErrorCode.INVALID_MODE, ErrorCode.INVALID_MODE.message("missing mode"));
        }
        if (c.subject() == null) {
            out.globalMode(c.mode().name());
        } else if (!Subject.isValid(c.subject())) {
            return invalidSubject(c.subject());
        } else {
            out.subjectMode(c.subject(), c.mode().name());
        }
        return new ModeSet(c.mode());
    }

    private Outcome deleteMode(RegistryView view, ViewWriter out, DeleteMode c) {
        if (c.subject() == null) {
            Mode previous = view.globalMode().orElse(Mode.DEFAULT);
            out.globalMode(null);
            return new ModeDeleted(previous);
        }
        Optional<Mode> own = view.subjectMode(c.subject());
        if (own.isEmpty()) {
            return new Rejected(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED,
                    ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED.message(c.subject()));
        }
        out.subjectMode(c.subject(), null);
        return new ModeDeleted(own.get());
    }

    private Outcome lease(RegistryView view, ViewWriter out, LeaseIdBlock c) {
        if (!BlockGrants.validSize(c.size())) {
            return new Rejected(ErrorCode.UNPROCESSABLE, ErrorCode.UNPROCESSABLE.message("invalid id block size " + c.size()));
        }
        IdBlock block = BlockGrants.grant(view.idWatermark(), c.size());
        if (block == null) {
            return new Rejected(ErrorCode.STORE_ERROR, ErrorCode.STORE_ERROR.message("the id space is exhausted"));
        }
        out.idWatermark(block.end());
        return new BlockGranted(block.start(), block.size());
    }

    private static Rejected invalidSubject(String s) {
        return new Rejected(ErrorCode.INVALID_SUBJECT, ErrorCode.INVALID_SUBJECT.message(String.valueOf(s)));
    }

    private static Rejected notPermitted(String why) {
        return new Rejected(ErrorCode.OPERATION_NOT_PERMITTED, ErrorCode.OPERATION_NOT_PERMITTED.message(why));
    }

    private static Rejected readOnly(String s) {
        return new Rejected(ErrorCode.OPERATION_NOT_PERMITTED,
                ErrorCode.OPERATION_NOT_PERMITTED.message("Subject " + s + " is in read-only mode"));
    }
}
