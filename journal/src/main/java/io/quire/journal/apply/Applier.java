package io.quire.journal.apply;

import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.ApplyChangeSet;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.ControlExporter;
import io.quire.journal.command.CreateDek;
import io.quire.journal.command.CreateKek;
import io.quire.journal.command.DeleteAssociations;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteContext;
import io.quire.journal.command.DeleteDek;
import io.quire.journal.command.DeleteExporter;
import io.quire.journal.command.DeleteKek;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ExporterProgress;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.Promote;
import io.quire.journal.command.PutExporter;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.RegisterVersions;
import io.quire.journal.command.SetAssociations;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.command.UndeleteDek;
import io.quire.journal.command.UndeleteKek;
import io.quire.journal.command.UpdateKek;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.Changes;
import io.quire.journal.view.Keys;
import io.quire.journal.view.Position;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The pure applier: {@code (view, offset, command) -> (changes, outcome)}. No clock, no randomness,
 * no I/O; it only re-checks the preconditions the edge carried and does O(1) work per command
 * (deletes touch the versions of one subject). Replaying the same journal yields the same view and
 * the same digest on every node. Idempotent by offset: a record at or below the applied offset is
 * skipped, which is what makes replay after a crash safe.
 */
public final class Applier {

    public ApplyResult apply(RegistryView view, Offset offset, Envelope envelope) {
        Position current = view.position();
        if (!offset.isAfter(current.offset())) {
            return ApplyResult.skipped(current);
        }
        ViewWriter out = new ViewWriter(new Changes());
        Outcome outcome = RegionRules.fence(view, envelope);
        if (outcome == null) {
            outcome = FollowRules.gate(view, envelope);
        }
        if (outcome == null) {
            Envelope.Source src = envelope.source();
            outcome = decide(src == null ? view : FollowRules.asImport(view), out, offset, envelope);
            if (src != null && outcome.accepted()) {
                out.follow(new io.quire.journal.view.FollowState(src.name(), true, src.offset(), src.part()));
            }
        }
        return finish(out, current, offset, envelope, outcome);
    }

    /** A record the codec cannot read, applied as a counted rejection when skipping is configured. */
    public ApplyResult applyUnreadable(RegistryView view, Offset offset, String reason) {
        Position current = view.position();
        if (!offset.isAfter(current.offset())) {
            return ApplyResult.skipped(current);
        }
        Outcome outcome = Rejected.of(ErrorCode.STORE_ERROR, "unreadable journal record: " + reason);
        return finish(new ViewWriter(new Changes()), current, offset, null, outcome);
    }

    private ApplyResult finish(ViewWriter out, Position current, Offset offset, Envelope envelope, Outcome outcome) {
        if (!outcome.accepted()) {
            out = new ViewWriter(new Changes()); // a refused command changes nothing but the position
        }
        CommandId commandId = envelope == null ? CommandId.unreadable(offset) : envelope.commandId();
        byte[] record = JournalCodec.encodeOutcome(commandId, outcome);
        // Only rejections and conflicts carry free text: any other outcome's digest form is its stored form.
        byte[] covered = current.digestVersion() == 1 || !JournalCodec.hasFreeText(outcome) ? record
                : JournalCodec.encodeDigestForm(commandId, outcome);
        Position next = new Position(offset, chain(current.digest(), offset, covered), current.digestVersion());
        if (current.offset().equals(Offset.NONE)) {
            out.layout(Keys.CURRENT_LAYOUT);
        }
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

    static byte[] chain(byte[] previous, Offset offset, byte[] outcomeRecord) {
        MessageDigest sha = SHA256.get(); // digest() resets it for the next use
        sha.update(previous);
        sha.update(ByteBuffer.allocate(8).putLong(offset.value()).array());
        sha.update(outcomeRecord);
        return sha.digest();
    }

    static Outcome decide(RegistryView view, ViewWriter out, Offset offset, Envelope envelope) {
        Command command = envelope.command();
        return switch (command.type()) {
            case REGISTER_SCHEMA -> SchemaRules.register(view, out, offset, envelope.timestamp(), (RegisterSchema) command);
            case IMPORT_SCHEMA -> SchemaRules.importSchema(view, out, offset, envelope.timestamp(), (ImportSchema) command);
            case DELETE_SUBJECT -> DeleteRules.deleteSubject(view, out, offset, (DeleteSubject) command);
            case DELETE_VERSION -> DeleteRules.deleteVersion(view, out, offset, (DeleteVersion) command);
            case SET_CONFIG -> SettingsRules.setConfig(view, out, (SetConfig) command);
            case DELETE_CONFIG -> SettingsRules.deleteConfig(view, out, (DeleteConfig) command);
            case SET_MODE -> SettingsRules.setMode(out, (SetMode) command);
            case DELETE_MODE -> SettingsRules.deleteMode(view, out, (DeleteMode) command);
            case LEASE_ID_BLOCK -> LeaseRules.lease(view, out, (LeaseIdBlock) command);
            case SET_ASSOCIATIONS -> AssociationRules.set(view, out, offset, (SetAssociations) command);
            case DELETE_ASSOCIATIONS -> AssociationRules.delete(view, out, offset, (DeleteAssociations) command);
            case DELETE_CONTEXT -> DeleteRules.deleteContext(view, out, (DeleteContext) command);
            case CREATE_KEK -> KeyRules.createKek(view, out, envelope.timestamp(), (CreateKek) command);
            case UPDATE_KEK -> KeyRules.updateKek(view, out, envelope.timestamp(), (UpdateKek) command);
            case DELETE_KEK -> KeyRules.deleteKek(view, out, envelope.timestamp(), (DeleteKek) command);
            case UNDELETE_KEK -> KeyRules.undeleteKek(view, out, envelope.timestamp(), (UndeleteKek) command);
            case CREATE_DEK -> KeyRules.createDek(view, out, envelope.timestamp(), (CreateDek) command);
            case DELETE_DEK -> KeyRules.deleteDek(view, out, envelope.timestamp(), (DeleteDek) command);
            case UNDELETE_DEK -> KeyRules.undeleteDek(view, out, envelope.timestamp(), (UndeleteDek) command);
            case SET_FOLLOW -> FollowRules.setFollow(view, out, (io.quire.journal.command.SetFollow) command);
            case PUT_EXPORTER -> ExportRules.put(view, out, envelope.timestamp(), (PutExporter) command);
            case DELETE_EXPORTER -> ExportRules.delete(view, out, (DeleteExporter) command);
            case CONTROL_EXPORTER -> ExportRules.control(view, out, envelope.timestamp(), (ControlExporter) command);
            case EXPORTER_PROGRESS -> ExportRules.progress(view, out, envelope.timestamp(), (ExporterProgress) command);
            case PROMOTE -> RegionRules.promote(view, out, envelope.timestamp(), (Promote) command);
            case APPLY_CHANGE_SET -> ChangeSetRules.apply(view, out, offset, envelope, (ApplyChangeSet) command);
            case TAKE_LEASE -> ExportRules.takeLease(view, out, envelope.timestamp(),
                    (io.quire.journal.command.TakeLease) command);
            case REGISTER_VERSIONS -> VersionRules.register(view, out, offset, envelope, (RegisterVersions) command);
            case IMPORT_SCHEMAS -> FollowRules.importAll(view, out, offset, envelope,
                    (io.quire.journal.command.ImportSchemas) command);
        };
    }

    /** The command id of the envelope an edge verdict is decided in (nothing is journaled under it). */
    private static final CommandId EDGE_VERDICT = CommandId.of("edge-verdict");

    /**
     * A refusal when an imported id and content disagree with the view (42207 / 42205); null when
     * they agree. The edge runs the same check before journaling.
     */
    public static Rejected importedIdClash(RegistryView view, Context context, Fingerprint fingerprint, SchemaId id) {
        return SchemaRules.importedIdClash(view, context, fingerprint, id);
    }

    /**
     * The applier's verdict on a command against this view, without keeping its writes: the
     * refusal, or null when it would be applied. The edge asks before journaling, so nothing
     * doomed reaches the journal; the command is decided exactly as the applier will decide it
     * (at the view's position, with no clock).
     */
    public static Rejected refusal(RegistryView view, Command command) {
        Envelope e = Envelope.of(EDGE_VERDICT, "edge", null, 0L, command);
        Rejected gated = FollowRules.gate(view, e);
        if (gated != null) {
            return gated;
        }
        Outcome o = decide(view, new ViewWriter(new Changes()), view.position().offset(), e);
        return o instanceof Rejected r ? r : null;
    }

    /** What a command would come to and write, decided and kept apart from the view. */
    public record Trial(Outcome outcome, Changes changes) {
    }

    /**
     * The applier's verdict on a command over {@code view} as if it were journaled at {@code at},
     * with the writes it would make: the edge builds a change set's steps one over another with it,
     * each seeing the writes of the steps before it ({@link io.quire.journal.view.OverlayKv}).
     */
    public static Trial trial(RegistryView view, Offset at, long timestamp, Command command) {
        Envelope e = Envelope.of(EDGE_VERDICT, "edge", null, timestamp, command);
        Rejected gated = FollowRules.gate(view, e);
        if (gated != null) {
            return new Trial(gated, new Changes());
        }
        ViewWriter out = new ViewWriter(new Changes());
        Outcome o = decide(view, out, at, e);
        return new Trial(o, o.accepted() ? out.changes() : new Changes());
    }

    /**
     * The applier's refusal of a change set's expectations on this view (a subject named twice, or
     * 40920 naming each subject that moved since the plan), or null: the edge asks before it builds
     * the steps.
     */
    public static Rejected expectationsRefusal(RegistryView view, String changeId, List<ApplyChangeSet.Expected> expect) {
        return ChangeSetRules.expectations(view, changeId, expect);
    }

    /** The refusal of any client write while the registry follows another registry; null when it does not. */
    public static Rejected whileFollowing(RegistryView view) {
        return view.follow().filter(io.quire.journal.view.FollowState::following).map(FollowRules::readOnly).orElse(null);
    }
}
