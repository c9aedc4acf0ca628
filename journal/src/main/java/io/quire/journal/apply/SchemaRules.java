package io.quire.journal.apply;

import io.quire.ids.BlockGrants;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.SearchIndex;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.journal.view.ViewWriter;
import java.util.List;
import java.util.Optional;

/** Registrations and imports: content keeps one id, a subject's versions grow by one. */
final class SchemaRules {

    private SchemaRules() {
    }

    static Outcome register(RegistryView view, ViewWriter out, Offset offset, long timestamp, RegisterSchema c) {
        Subject s = c.subject();
        if (!Subject.isValid(s) || s.isContextOnly()) {
            return Rules.invalidSubject(s);
        }
        Context ctx = s.context();
        if (c.schema() == null || c.fingerprint() == null || c.schemaType() == null || c.checkedLevel() == null) {
            return Rejected.of(ErrorCode.INVALID_SCHEMA, "(incomplete command)");
        }
        Mode mode = view.config().effectiveMode(s);
        if (!mode.allowsWrites()) {
            return Rules.readOnly(s);
        }
        if (mode == Mode.IMPORT) {
            return Rules.notPermitted("Subject " + s + " is in import mode: registrations must give an id");
        }
        Optional<SchemaId> existing = view.ids().idForFingerprint(ctx, c.fingerprint());
        Optional<SubjectRecord> subject = view.subject(s);
        if (existing.isPresent()) {
            Optional<Version> live = view.usages().liveVersionWithId(s, existing.get());
            if (live.isPresent()) {
                return new SchemaRegistered(existing.get(), live.get(), false);
            }
        }
        CompatibilityLevel level = view.config().effectiveLevel(s);
        if (level != c.checkedLevel()) {
            return new Conflict("compatibility level of '" + s + "' is now " + level);
        }
        Offset revision = subject.map(SubjectRecord::revision).orElse(SubjectRecord.ABSENT);
        boolean sameRecord = Offset.THIS_RECORD.equals(c.checkedRevision()) && revision.equals(offset);
        if (level != CompatibilityLevel.NONE && !revision.equals(c.checkedRevision()) && !sameRecord) {
            return new Conflict("subject '" + s + "' changed since the compatibility check");
        }
        SchemaId id;
        if (existing.isPresent()) {
            id = existing.get();
        } else {
            id = c.proposedId();
            if (id == null || id.value() < BlockGrants.FIRST_ID || id.compareTo(view.idWatermark()) >= 0) {
                return Rejected.of(ErrorCode.OPERATION_NOT_PERMITTED, "id " + id + " was never leased");
            }
            if (!TestBreak.REUSE_IDS && view.holdsSchemaId(ctx, id)) { // TestBreak skips it, never otherwise
                return new Conflict("id " + id + " is taken");
            }
            Rejected refused = storeNew(view, out, s, id, new StoredSchema(c.schema(), c.schemaType(), c.references(),
                    c.metadata(), c.ruleSet()), c.fingerprint(), c.index());
            if (refused != null) {
                return refused;
            }
        }
        SubjectRecord before = subject.orElse(SubjectRecord.EMPTY);
        Version version = before.latestVersion().next();
        long globalId = view.ids().nextGlobalId();
        out.nextGlobalId(globalId + 1);
        out.version(s, new VersionRecord(version, id, false, timestamp, globalId, false));
        if (subject.isEmpty()) {
            SearchIndex.fileSubject(out.changes(), s);
        }
        out.subject(s, new SubjectRecord(version, before.liveVersions() + 1, before.totalVersions() + 1, offset));
        return new SchemaRegistered(id, version, true);
    }

    /**
     * IMPORT mode: the id and version come from the command. Content keeps one id (42207 when it
     * has another), an id keeps one content and a version one id (42205 otherwise); the id
     * watermark moves above the id, so no block ever granted later contains it. A node holding an
     * older block that contains it gets a conflict for that id and takes the next one.
     */
    static Outcome importSchema(RegistryView view, ViewWriter out, Offset offset, long timestamp, ImportSchema c) {
        Subject s = c.subject();
        if (!Subject.isValid(s) || s.isContextOnly()) {
            return Rules.invalidSubject(s);
        }
        if (c.schema() == null || c.fingerprint() == null || c.schemaType() == null || c.id() == null
                || c.version() == null) {
            return Rejected.of(ErrorCode.INVALID_SCHEMA, "(incomplete command)");
        }
        if (view.config().effectiveMode(s) != Mode.IMPORT) {
            return Rules.notPermitted("Subject " + s + " is not in import mode");
        }
        if (c.id().value() < BlockGrants.FIRST_ID || c.id().value() > Integer.MAX_VALUE || c.version().number() < 0) {
            return Rules.notPermitted("id " + c.id() + " and version " + c.version() + " must be positive 32-bit numbers");
        }
        Optional<SchemaId> existing = view.ids().idForFingerprint(s.context(), c.fingerprint());
        Rejected clash = idClash(view, s.context(), existing, c.id());
        if (clash != null) {
            return clash;
        }
        SubjectRecord before = view.subject(s).orElse(SubjectRecord.EMPTY);
        Version version = c.version();
        if (version.equals(Version.NONE)) {
            Optional<Version> live = view.usages().liveVersionWithId(s, c.id());
            if (live.isPresent()) {
                return new SchemaRegistered(c.id(), live.get(), false);
            }
            if (before.latestVersion().number() == Integer.MAX_VALUE) {
                return Rules.notPermitted("subject " + s + " has no version number left");
            }
            version = before.latestVersion().next();
        }
        Optional<VersionRecord> taken = view.version(s, before, version);
        if (taken.isPresent()) {
            if (taken.get().schemaId().equals(c.id())) {
                return new SchemaRegistered(c.id(), version, false); // already imported (and maybe soft-deleted since)
            }
            return Rules.notPermitted("Version " + version + " of subject " + s + " already exists with id "
                    + taken.get().schemaId());
        }
        long nextGlobal = view.ids().nextGlobalId();
        long globalId = c.globalId() == null ? nextGlobal : c.globalId();
        if (globalId < 1 || globalId > Integer.MAX_VALUE) {
            return Rules.notPermitted("global id " + globalId + " must be a positive 32-bit number");
        }
        if (c.globalId() != null && view.ids().versionOfGlobalId(globalId).isPresent()) {
            RegistryView.Usage holder = view.ids().versionOfGlobalId(globalId).get();
            return Rules.notPermitted("global id " + globalId + " is taken by version " + holder.version()
                    + " of subject " + holder.subject());
        }
        if (existing.isEmpty()) {
            Rejected refused = storeNew(view, out, s, c.id(), new StoredSchema(c.schema(), c.schemaType(), c.references(),
                    c.metadata(), c.ruleSet()), c.fingerprint(), c.index());
            if (refused != null) {
                return refused;
            }
        }
        if (c.id().compareTo(view.idWatermark()) >= 0) {
            out.idWatermark(SchemaId.of(c.id().value() + 1));
        }
        out.nextGlobalId(Math.max(nextGlobal, globalId + 1));
        out.version(s, new VersionRecord(version, c.id(), false, timestamp, globalId, c.markedDeprecated()));
        if (before == SubjectRecord.EMPTY) {
            SearchIndex.fileSubject(out.changes(), s);
        }
        out.subject(s, new SubjectRecord(Version.max(before.latestVersion(), version), before.liveVersions() + 1,
                before.totalVersions() + 1, offset));
        return new SchemaRegistered(c.id(), version, true);
    }

    /**
     * A refusal when an imported id and content disagree with the view: the content is known under
     * another id (42207), or the id holds other content (42205); null when they agree, all inside
     * one context (another context may use the id for other content). The edge runs the same
     * check before journaling.
     */
    public static Rejected importedIdClash(RegistryView view, Context ctx, Fingerprint fingerprint, SchemaId id) {
        return idClash(view, ctx, view.ids().idForFingerprint(ctx, fingerprint), id);
    }

    /** {@link #importedIdClash} given the id the content has in the context ({@code existing}), read once. */
    private static Rejected idClash(RegistryView view, Context ctx, Optional<SchemaId> existing, SchemaId id) {
        if (existing.isPresent() && !existing.get().equals(id)) {
            return Rejected.of(ErrorCode.ID_DOES_NOT_MATCH, 
                    "Schema already registered with id " + existing.get() + " instead of input id " + id);
        }
        if (existing.isEmpty() && view.holdsSchemaId(ctx, id)) {
            return Rules.notPermitted("Overwrite new schema with id " + id + " is not permitted.");
        }
        return null;
    }

    /**
     * A refusal when a reference names a subject version that is not there (deleted since the edge
     * looked); a reference's subject is read in the context of the schema's subject.
     */
    static Rejected missingReference(RegistryView view, Context ctx, List<SchemaReference> references) {
        for (SchemaReference r : references) {
            if (r.subject() == null || r.version() == null
                    || view.version(ctx.qualify(r.subject()), r.version()).map(v -> v.deleted()).orElse(true)) {
                return Rejected.of(ErrorCode.INVALID_SCHEMA, "reference " + r.name()
                        + " to subject " + r.subject() + " version " + r.version() + " does not exist");
            }
        }
        return null;
    }

    /**
     * Stores content the view does not have yet under {@code id}, or refuses: a reference that is
     * gone (42201), a rule set that breaks the rules (42210).
     */
    private static Rejected storeNew(RegistryView view, ViewWriter out, Subject owner, SchemaId id,
                                     StoredSchema schema, Fingerprint fingerprint, List<String> index) {
        Rejected refused = missingReference(view, owner.context(), schema.references());
        if (refused == null) {
            refused = invalidRules(schema.ruleSet());
        }
        if (refused == null) {
            writeSchema(view, out, owner.context(), id, schema, fingerprint);
            SearchIndex.file(out.changes(), owner.context(), id, schema.schemaType(), index, schema.metadata());
        }
        return refused;
    }

    /** A refusal when a rule set breaks Confluent's rules for rule sets (42210); null when it is valid or absent. */
    static Rejected invalidRules(RuleSet ruleSet) {
        String problem = ruleSet == null ? null : ruleSet.problem();
        return problem == null ? null : Rejected.of(ErrorCode.INVALID_RULESET, problem);
    }

    static void writeSchema(RegistryView view, ViewWriter out, Context ctx, SchemaId id, StoredSchema schema,
                            Fingerprint fingerprint) {
        out.schema(ctx, id, schema, fingerprint);
        if (view.ids().maxSchemaId().map(max -> id.compareTo(max) > 0).orElse(true)) {
            out.maxSchemaId(id);
        }
        for (SchemaReference r : schema.references()) {
            out.reference(ctx.qualify(r.subject()), r.version(), id);
        }
    }

}
