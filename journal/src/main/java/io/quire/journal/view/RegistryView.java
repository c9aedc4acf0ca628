package io.quire.journal.view;

import io.quire.ids.BlockGrants;
import io.quire.journal.model.Context;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Typed reads of the view, over any {@link KvReader}: the applier decides with it, the query node
 * answers reads with it. Decoding lives here and in the rooms it answers with, next to {@link Keys}:
 * {@link ConfigReads} (levels, normalize flags, config fields, modes), {@link SubjectScans}, {@link
 * IdReads}, {@link UsageReads} (usages, references, GUIDs), {@link AssociationReads}, {@link KeyReads}
 * (KEKs, DEKs) and {@link AuditReads}. A caller asks the room it needs ({@code view.config().effectiveLevel(s)},
 * {@code view.ids().idForFingerprint(c, f)}); this class reads only what is the view's own (its position,
 * subjects, versions, schemas by id, contexts) and hands out the rooms, with no forwards to them.
 */
public final class RegistryView {

    /** A subject version that uses a schema id. */
    public record Usage(Subject subject, Version version) {
    }

    private final KvReader kv;
    private final ConfigReads config;
    private final AssociationReads associationReads;
    private final KeyReads keyReads;
    private final AuditReads auditReads;
    private final UsageReads usageReads;
    private final SubjectScans subjectScans;
    private final IdReads idReads;
    /** A memoized view's decoded schemas, by their stored bytes' identity (null: not memoized). */
    private final java.util.IdentityHashMap<byte[], StoredSchema> decoded;

    public RegistryView(KvReader kv) {
        this(kv, false);
    }

    private RegistryView(KvReader kv, boolean memoized) {
        this.kv = kv;
        this.config = new ConfigReads(kv);
        this.associationReads = new AssociationReads(kv);
        this.keyReads = new KeyReads(kv);
        this.auditReads = new AuditReads(kv, this);
        this.usageReads = new UsageReads(kv, this);
        this.subjectScans = new SubjectScans(kv);
        this.idReads = new IdReads(kv);
        // a registration decodes two or three schemas: a small table (the default one holds 21)
        this.decoded = memoized ? new java.util.IdentityHashMap<>(4) : null;
    }

    public KvReader kv() {
        return kv;
    }

    /**
     * This view with its point reads remembered, absent keys included, for one piece of work on
     * one thread (a registration's checks): each key is read from the store once, as it was then.
     */
    public RegistryView memoized() {
        return new RegistryView(new MemoKv(kv), true);
    }

    /** Compatibility levels, normalize flags, config fields and modes: the subject's, its context's, the registry's. */
    public ConfigReads config() {
        return config;
    }

    /** Associations of subjects with resources. */
    public AssociationReads associations() {
        return associationReads;
    }

    /** The DEK registry's KEKs and DEKs. */
    public KeyReads keys() {
        return keyReads;
    }

    /** The audit trail. */
    public AuditReads audit() {
        return auditReads;
    }

    /** Which versions use an id, references, GUIDs. */
    public UsageReads usages() {
        return usageReads;
    }

    /** Subjects listed, counted and paged. */
    public SubjectScans scans() {
        return subjectScans;
    }

    /** Ids: by fingerprint and content hash, global ids, the highest id stored. */
    public IdReads ids() {
        return idReads;
    }

    public Position position() {
        byte[] b = kv.get(Keys.POSITION);
        return b == null ? Position.GENESIS : Position.decode(b);
    }

    /** Whether this registry follows another registry's log (empty: it never did). */
    public Optional<FollowState> follow() {
        return Optional.ofNullable(kv.get(Keys.FOLLOW)).map(FollowState::decode);
    }

    /** The first id never granted. */
    public SchemaId idWatermark() {
        byte[] b = kv.get(Keys.NEXT_ID);
        return SchemaId.of(b == null ? BlockGrants.FIRST_ID : ByteBuffer.wrap(b).getLong());
    }




    /**
     * The subject holding the settings of a subject's named context, when the subject is not that
     * one itself: settings fall back subject, context, registry, as in Confluent's registry.
     */
    public static Optional<Subject> contextSettings(Subject subject) {
        Context c = subject.context();
        return c.isDefault() || subject.isContextOnly() ? Optional.empty() : Optional.of(c.settingsSubject());
    }














    public Optional<SubjectRecord> subject(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subject(subject))).map(SubjectRecord::decode);
    }

    public Offset revision(Subject subject) {
        return subject(subject).map(SubjectRecord::revision).orElse(SubjectRecord.ABSENT);
    }


    /** What a subject prefix starts with to match subjects of every context ({@code :*:orders}). */
    public static final String ANY_CONTEXT = ":*:";


    public Optional<VersionRecord> version(Subject subject, Version version) {
        return Optional.ofNullable(kv.get(Keys.version(subject, version))).map(b -> VersionRecord.decode(version, b));
    }

    /**
     * As {@link #version(Subject, Version)}, given the subject's record as just read: a version
     * above the subject's latest is not in the view (no version is ever stored above it), so it is
     * answered without a read. Copies and imports ask mostly for such versions, and a point read of
     * a key that is not there costs more than one that is.
     */
    public Optional<VersionRecord> version(Subject subject, SubjectRecord known, Version version) {
        return version.compareTo(known.latestVersion()) > 0 ? Optional.empty() : version(subject, version);
    }

    /** Point reads {@link #latestLive} tries before it scans the subject's versions. */
    static final int LATEST_LIVE_PROBES = 8;

    /** All versions of a subject present in the view, ascending, soft-deleted ones included. */
    public List<VersionRecord> versions(Subject subject) {
        List<VersionRecord> out = new ArrayList<>();
        kv.scan(Keys.versions(subject), (k, v) -> {
            out.add(VersionRecord.decode(Keys.versionOf(k), v));
            return true;
        });
        return out;
    }

    /**
     * The highest live version, if any. Read down from the subject's highest version by point
     * reads (a subject's newest versions are nearly always live), so a subject of thousands of
     * versions costs a few reads, not a scan; a scan only after {@link #LATEST_LIVE_PROBES} misses.
     */
    public Optional<VersionRecord> latestLive(Subject subject) {
        Optional<SubjectRecord> record = subject(subject);
        if (record.isEmpty() || record.get().liveVersions() == 0) {
            return Optional.empty();
        }
        int n = record.get().latestVersion().number();
        for (int probe = 0; probe < LATEST_LIVE_PROBES && n - probe >= 1; probe++) {
            Optional<VersionRecord> v = version(subject, Version.of(n - probe));
            if (v.isPresent() && !v.get().deleted()) {
                return v;
            }
        }
        List<VersionRecord> all = versions(subject);
        for (int i = all.size() - 1; i >= 0; i--) {
            if (!all.get(i).deleted()) {
                return Optional.of(all.get(i));
            }
        }
        return Optional.empty();
    }

    /** The prepared body of {@code GET /schemas/ids/{id}} in a context, or null. */
    public byte[] schemaBytes(Context context, SchemaId id) {
        return kv.get(Keys.schema(context, id));
    }

    public Optional<StoredSchema> schema(Context context, SchemaId id) {
        byte[] bytes = schemaBytes(context, id);
        if (bytes == null) {
            return Optional.empty();
        }
        if (decoded == null) {
            return Optional.of(StoredSchema.decode(bytes));
        }
        // The memo hands back the same array for a key each time: decode it once.
        return Optional.of(decoded.computeIfAbsent(bytes, StoredSchema::decode));
    }

    /** The schema a subject version stores (the version's id read in the subject's context). */
    public Optional<StoredSchema> schemaOf(Subject subject, VersionRecord version) {
        return schema(subject.context(), version.schemaId());
    }




    /**
     * The layout this view is written in: {@link Keys#CURRENT_LAYOUT} for a view built by this
     * applier, 1 for one built before layouts were recorded, 0 for a view that has applied nothing.
     */
    public int layout() {
        byte[] b = kv.get(Keys.LAYOUT);
        if (b != null) {
            return ByteBuffer.wrap(b).getInt();
        }
        return kv.get(Keys.POSITION) == null ? 0 : 1;
    }







    /** The named contexts, ascending (the default one is always there and not listed). */
    public List<Context> contexts() {
        List<Context> out = new ArrayList<>();
        kv.scan(Keys.CONTEXTS, (k, v) -> {
            out.add(Keys.contextOf(k));
            return true;
        });
        return out;
    }

    public boolean hasContext(Context context) {
        return context.isDefault() || kv.get(Keys.context(context)) != null;
    }



    /** Whether a schema of the context holds {@code id}; read only when {@link IdReads#mayHoldSchemaId} allows it. */
    public boolean holdsSchemaId(Context ctx, SchemaId id) {
        return idReads.mayHoldSchemaId(id) && schemaBytes(ctx, id) != null;
    }

    /** A context and the id the content with some GUID has there. */
    public record ContextId(Context context, SchemaId id) {
    }











    /**
     * How far behind in time an audit entry may sit behind an earlier offset: entries are in
     * journal order and carry the writing node's clock, so nodes' clocks may disagree by this much.
     */
    public static final long AUDIT_CLOCK_SKEW_MILLIS = 5 * 60_000L;


    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
