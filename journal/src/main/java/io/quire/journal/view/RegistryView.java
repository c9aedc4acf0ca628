package io.quire.journal.view;

import io.quire.ids.BlockGrants;
import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Association;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Context;
import io.quire.journal.model.Dek;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Kek;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Typed reads of the view, over any {@link KvReader}. The applier decides with it; the query node
 * answers reads with it. Decoding lives here and only here, next to {@link Keys}.
 */
public final class RegistryView {

    /** A subject version that uses a schema id. */
    public record Usage(Subject subject, Version version) {
    }

    private final KvReader kv;
    /** A memoized view's decoded schemas, by their stored bytes' identity (null: not memoized). */
    private final java.util.IdentityHashMap<byte[], StoredSchema> decoded;

    public RegistryView(KvReader kv) {
        this(kv, false);
    }

    private RegistryView(KvReader kv, boolean memoized) {
        this.kv = kv;
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

    public Position position() {
        byte[] b = kv.get(Keys.POSITION);
        return b == null ? Position.GENESIS : Position.decode(b);
    }

    /** The first id never granted. */
    public SchemaId idWatermark() {
        byte[] b = kv.get(Keys.NEXT_ID);
        return SchemaId.of(b == null ? BlockGrants.FIRST_ID : ByteBuffer.wrap(b).getLong());
    }

    public Optional<CompatibilityLevel> globalLevel() {
        return Optional.ofNullable(kv.get(Keys.GLOBAL_CONFIG)).map(b -> CompatibilityLevel.valueOf(text(b)));
    }

    public Optional<CompatibilityLevel> subjectLevel(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subjectConfig(subject))).map(b -> CompatibilityLevel.valueOf(text(b)));
    }

    /** The subject's level, else its context's ({@code :.ctx:}), else the registry's, else the default. */
    public CompatibilityLevel effectiveLevel(Subject subject) {
        return subjectLevel(subject).or(() -> contextSettings(subject).flatMap(this::subjectLevel))
                .or(this::globalLevel).orElse(CompatibilityLevel.DEFAULT);
    }

    /**
     * The subject holding the settings of a subject's named context, when the subject is not that
     * one itself: settings fall back subject, context, registry, as in Confluent's registry.
     */
    public static Optional<Subject> contextSettings(Subject subject) {
        Context c = subject.context();
        return c.isDefault() || subject.isContextOnly() ? Optional.empty() : Optional.of(c.settingsSubject());
    }

    public Optional<Boolean> globalNormalize() {
        return Optional.ofNullable(kv.get(Keys.GLOBAL_NORMALIZE)).map(b -> Boolean.parseBoolean(text(b)));
    }

    public Optional<Boolean> subjectNormalize(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subjectNormalize(subject))).map(b -> Boolean.parseBoolean(text(b)));
    }

    /** Whether schemas registered under the subject are normalised (its flag, else the global one, else no). */
    public boolean effectiveNormalize(Subject subject) {
        return subjectNormalize(subject).or(() -> contextSettings(subject).flatMap(this::subjectNormalize))
                .or(this::globalNormalize).orElse(false);
    }

    /** The registry's other config fields (none set: {@link ConfigFields#NONE}). */
    public ConfigFields globalFields() {
        return fields(kv.get(Keys.GLOBAL_FIELDS));
    }

    /** A subject's own other config fields (none set: {@link ConfigFields#NONE}). */
    public ConfigFields subjectFields(Subject subject) {
        return fields(kv.get(Keys.subjectFields(subject)));
    }

    /** The fields in force for a subject: each its own, else its context's, else the registry's. */
    public ConfigFields effectiveFields(Subject subject) {
        ConfigFields below = globalFields();
        Optional<Subject> context = contextSettings(subject);
        if (context.isPresent()) {
            below = subjectFields(context.get()).orElse(below);
        }
        return subjectFields(subject).orElse(below);
    }

    private static ConfigFields fields(byte[] b) {
        if (b == null) {
            return ConfigFields.NONE;
        }
        try {
            return Json.MAPPER.readValue(b, ConfigFields.class);
        } catch (java.io.IOException e) {
            throw new CorruptRecordException("cannot decode config fields", e);
        }
    }

    /** A resource's associations of a type ({@code type} null: every type), ordered by type and role. */
    public List<Association> associations(String resourceId, String type) {
        List<Association> out = new ArrayList<>();
        kv.scan(Keys.associations(resourceId, type), (k, v) -> {
            out.add(association(v));
            return true;
        });
        return out;
    }

    public Optional<Association> association(String resourceId, String type, String role) {
        return Optional.ofNullable(kv.get(Keys.association(resourceId, type, role))).map(RegistryView::association);
    }

    /** The associations of a subject. */
    public List<Association> subjectAssociations(Subject subject) {
        List<Association> out = new ArrayList<>();
        byte[] prefix = Keys.subjectAssociations(subject);
        kv.scan(prefix, (k, v) -> {
            String[] parts = new String(k, prefix.length, k.length - prefix.length, StandardCharsets.UTF_8).split("\u0000", 3);
            association(parts[0], parts[1], parts[2]).ifPresent(out::add);
            return true;
        });
        return out;
    }

    /** The associations of resources with this name, in a namespace or ({@code namespace} null) in any. */
    public List<Association> associationsByName(String name, String namespace) {
        List<Association> out = new ArrayList<>();
        byte[] prefix = Keys.associationsByName(name, null);
        kv.scan(prefix, (k, v) -> {
            String[] parts = new String(k, prefix.length, k.length - prefix.length, StandardCharsets.UTF_8).split("\u0000", 4);
            if (namespace == null || namespace.equals(parts[0])) {
                association(parts[3], parts[1], parts[2]).ifPresent(out::add);
            }
            return true;
        });
        return out;
    }

    private static Association association(byte[] json) {
        try {
            return Json.MAPPER.readValue(json, Association.class);
        } catch (java.io.IOException e) {
            throw new CorruptRecordException("cannot decode association", e);
        }
    }

    public Optional<Mode> globalMode() {
        return Optional.ofNullable(kv.get(Keys.GLOBAL_MODE)).map(b -> Mode.valueOf(text(b)));
    }

    public Optional<Mode> subjectMode(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subjectMode(subject))).map(b -> Mode.valueOf(text(b)));
    }

    public Mode effectiveMode(Subject subject) {
        Optional<Mode> global = globalMode();
        if (global.isPresent() && global.get() == Mode.READONLY_OVERRIDE) {
            return Mode.READONLY_OVERRIDE;
        }
        return subjectMode(subject).or(() -> contextSettings(subject).flatMap(this::subjectMode))
                .or(() -> global).orElse(Mode.DEFAULT);
    }

    public Optional<SubjectRecord> subject(Subject subject) {
        return Optional.ofNullable(kv.get(Keys.subject(subject))).map(SubjectRecord::decode);
    }

    public Offset revision(Subject subject) {
        return subject(subject).map(SubjectRecord::revision).orElse(SubjectRecord.ABSENT);
    }

    /** Whether any subject exists (soft-deleted ones included). */
    public boolean hasSubjects() {
        boolean[] found = {false};
        kv.scan(Keys.SUBJECTS, (k, v) -> {
            found[0] = true;
            return false;
        });
        return found[0];
    }

    /** What a subject prefix starts with to match subjects of every context ({@code :*:orders}). */
    public static final String ANY_CONTEXT = ":*:";

    /**
     * The subjects whose names start with {@code prefix}, ascending by name, soft-deleted ones
     * included. A prefix {@code :.ctx:} keeps to one context; {@code :*:p} matches {@code p}
     * inside every context (the default one included), as Confluent's wildcard does.
     */
    public List<Subject> subjects(String prefix) {
        String p = prefix == null ? "" : prefix;
        boolean anyContext = p.startsWith(ANY_CONTEXT);
        String bare = anyContext ? p.substring(ANY_CONTEXT.length()) : null;
        List<Subject> out = new ArrayList<>();
        kv.scan(Keys.subjectPrefix(anyContext ? "" : p), (k, v) -> {
            Subject s = Keys.subjectOf(k);
            if (!anyContext || s.bare().startsWith(bare)) {
                out.add(s);
            }
            return true;
        });
        return out;
    }

    /**
     * As {@link #subjects(String)}, each with its record read from the scan itself (no second
     * read per subject), until the visitor says stop: a page costs the page and what precedes it
     * under the prefix, not the whole registry.
     */
    public void subjectRecords(String prefix, java.util.function.BiPredicate<Subject, SubjectRecord> visitor) {
        subjectRecordsFrom(prefix, null, visitor);
    }

    /**
     * As {@link #subjectRecords}, from the subject named {@code from} (or the first after it; null:
     * from the start): the scan seeks there.
     */
    public void subjectRecordsFrom(String prefix, String from,
                                   java.util.function.BiPredicate<Subject, SubjectRecord> visitor) {
        String p = prefix == null ? "" : prefix;
        boolean anyContext = p.startsWith(ANY_CONTEXT);
        String bare = anyContext ? p.substring(ANY_CONTEXT.length()) : null;
        byte[] scanned = Keys.subjectPrefix(anyContext ? "" : p);
        KvReader.KvVisitor each = (k, v) -> {
            Subject s = Keys.subjectOf(k);
            return anyContext && !s.bare().startsWith(bare) || visitor.test(s, SubjectRecord.decode(v));
        };
        byte[] start = from == null ? null : Keys.subjectPrefix(from);
        if (start == null || java.util.Arrays.compareUnsigned(start, scanned) <= 0) {
            kv.scan(scanned, each);
        } else {
            kv.scanFrom(scanned, start, each);
        }
    }

    /**
     * A number that changes whenever a subject record is written (created, its versions changed,
     * deleted); with {@code versions}, whenever a version record is written too. -1: the store
     * does not count (see {@link KvReader#writesUnder}).
     */
    public long subjectWrites(boolean versions) {
        long s = kv.writesUnder(Keys.SUBJECTS[0]);
        if (s < 0 || !versions) {
            return s;
        }
        long v = kv.writesUnder((byte) 'V');
        return v < 0 ? -1 : s + v;
    }

    public Optional<VersionRecord> version(Subject subject, Version version) {
        return Optional.ofNullable(kv.get(Keys.version(subject, version))).map(b -> VersionRecord.decode(version, b));
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

    /** The global id the next version gets (1 in a view that has none yet). */
    public long nextGlobalId() {
        byte[] b = kv.get(Keys.NEXT_GLOBAL_ID);
        return b == null ? 1 : ByteBuffer.wrap(b).getLong();
    }

    /** The subject version with that global id, if any. */
    public Optional<Usage> versionOfGlobalId(long globalId) {
        byte[] b = kv.get(Keys.globalId(globalId));
        if (b == null) {
            return Optional.empty();
        }
        byte[] versionKey = new byte[b.length + 1];
        versionKey[0] = 'V';
        System.arraycopy(b, 0, versionKey, 1, b.length);
        return Optional.of(new Usage(Keys.subjectOfVersion(versionKey), Keys.versionOf(versionKey)));
    }

    /** The id of the content with that {@link ContentHash} in a context, if any. */
    public Optional<SchemaId> idForContentHash(Context context, String sha256Hex) {
        return Optional.ofNullable(kv.get(Keys.contentHash(context, sha256Hex)))
                .map(b -> SchemaId.of(ByteBuffer.wrap(b).getLong()));
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

    /**
     * True for a view built before versions had global ids: it has versions but no
     * {@link Keys#NEXT_GLOBAL_ID}. Such a view is rebuilt from the journal before a node serves it,
     * so that every node gives every version the same global id.
     */
    public boolean lacksGlobalIds() {
        if (kv.get(Keys.NEXT_GLOBAL_ID) != null) {
            return false;
        }
        boolean[] any = {false};
        kv.scan(new byte[] {'V'}, (k, v) -> {
            any[0] = true;
            return false;
        });
        return any[0];
    }

    public Optional<SchemaId> idForFingerprint(Context context, String fingerprint) {
        return Optional.ofNullable(kv.get(Keys.fingerprint(context, fingerprint)))
                .map(b -> SchemaId.of(ByteBuffer.wrap(b).getLong()));
    }

    public Optional<Kek> kek(String name) {
        return Optional.ofNullable(kv.get(Keys.kek(name))).map(b -> decode(b, Kek.class));
    }

    /** Every KEK, by name, soft-deleted ones included. */
    public List<Kek> keks() {
        List<Kek> out = new ArrayList<>();
        kv.scan(Keys.KEKS, (k, v) -> {
            out.add(decode(v, Kek.class));
            return true;
        });
        return out;
    }

    /**
     * The DEK versions under a KEK (of a subject, of an algorithm: null for all), by subject,
     * algorithm and version, soft-deleted ones included.
     */
    public List<Dek> deks(String kekName, String subject, DekAlgorithm algorithm) {
        List<Dek> out = new ArrayList<>();
        kv.scan(Keys.deks(kekName, subject, algorithm), (k, v) -> {
            out.add(decode(v, Dek.class));
            return true;
        });
        return out;
    }

    public Optional<Dek> dek(String kekName, String subject, DekAlgorithm algorithm, int version) {
        return Optional.ofNullable(kv.get(Keys.dek(kekName, subject, algorithm, version))).map(b -> decode(b, Dek.class));
    }

    private static <T> T decode(byte[] json, Class<T> type) {
        try {
            return Json.MAPPER.readValue(json, type);
        } catch (java.io.IOException e) {
            throw new CorruptRecordException("cannot decode " + type.getSimpleName(), e);
        }
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

    /**
     * The highest id a stored schema has, if any. Views written before the applier kept it find it
     * by scanning the schemas once.
     */
    public Optional<SchemaId> maxSchemaId() {
        byte[] b = kv.get(Keys.MAX_SCHEMA_ID);
        if (b != null) {
            return Optional.of(SchemaId.of(ByteBuffer.wrap(b).getLong()));
        }
        long[] max = {-1};
        kv.scan(Keys.SCHEMAS, (k, v) -> {
            max[0] = Math.max(max[0], ByteBuffer.wrap(k, 1, 8).getLong());
            return true;
        });
        return max[0] < 0 ? Optional.empty() : Optional.of(SchemaId.of(max[0]));
    }

    /**
     * False when no context can hold a schema with {@code id}: the view keeps the highest id a
     * stored schema has in any context, and {@code id} is above it. A registration of new content
     * asks this before it reads whether its id is taken, so the common case (a fresh id from the
     * node's block, above every stored one) costs no lookup of an absent key. True without the
     * highest id: views that predate it (and a scan of the default context's schemas would not
     * cover the other contexts).
     */
    public boolean mayHoldSchemaId(SchemaId id) {
        byte[] b = kv.get(Keys.MAX_SCHEMA_ID);
        return b == null || id.value() <= ByteBuffer.wrap(b).getLong();
    }

    /** Whether a schema of the context holds {@code id}; read only when {@link #mayHoldSchemaId} allows it. */
    public boolean holdsSchemaId(Context ctx, SchemaId id) {
        return mayHoldSchemaId(id) && schemaBytes(ctx, id) != null;
    }

    /** A context and the id the content with some GUID has there. */
    public record ContextId(Context context, SchemaId id) {
    }

    /**
     * The ids of the content with this GUID, one per context that stores it, the default context
     * first, then by context name (schemas stored since GUIDs exist).
     */
    public List<ContextId> idsForGuid(SchemaGuid guid) {
        List<ContextId> out = new ArrayList<>();
        kv.scan(Keys.guids(guid), (k, v) -> {
            out.add(new ContextId(Keys.guidContext(k), SchemaId.of(ByteBuffer.wrap(v).getLong())));
            return true;
        });
        return out;
    }

    /** Which subject versions of a context use an id there, ascending by subject then version, soft-deleted ones included. */
    public List<Usage> usages(Context context, SchemaId id) {
        List<Usage> out = new ArrayList<>();
        kv.scan(Keys.usages(id), (k, v) -> {
            Subject s = Keys.usageSubject(k);
            if (s.context().equals(context)) {
                out.add(new Usage(s, Keys.versionOf(k)));
            }
            return true;
        });
        return out;
    }

    /**
     * Which subject versions use an id in any context. An imported id may hold other content in
     * another context; callers that know the context ask {@link #usages(Context, SchemaId)}.
     */
    public List<Usage> usagesInEveryContext(SchemaId id) {
        List<Usage> out = new ArrayList<>();
        kv.scan(Keys.usages(id), (k, v) -> {
            out.add(new Usage(Keys.usageSubject(k), Keys.versionOf(k)));
            return true;
        });
        return out;
    }

    /** Whether the subjects of a context include any, soft-deleted ones too. */
    public boolean hasSubjects(Context context) {
        boolean[] found = {false};
        kv.scan(Keys.subjectPrefix(context.prefix()), (k, v) -> {
            found[0] = context.equals(Keys.subjectOf(k).context());
            return !found[0];
        });
        return found[0];
    }

    /** The versions of one subject that use an id (soft-deleted ones included). */
    public List<Version> versionsWithId(Subject subject, SchemaId id) {
        List<Version> out = new ArrayList<>();
        kv.scan(Keys.usages(id, subject), (k, v) -> {
            out.add(Keys.versionOf(k));
            return true;
        });
        return out;
    }

    /**
     * Ids of schemas whose references name this subject version and that some subject version
     * (live or soft-deleted) still uses, ascending.
     */
    public List<SchemaId> referencedBy(Subject subject, Version version) {
        return referrers(subject, version, true, null);
    }

    /**
     * Ids of schemas whose references name this subject version and that a version of a subject
     * other than {@code except} (null: any subject) uses: a live version, or a soft-deleted one too
     * when {@code countSoftDeleted}; ascending.
     */
    public List<SchemaId> referrers(Subject subject, Version version, boolean countSoftDeleted, Subject except) {
        List<SchemaId> out = new ArrayList<>();
        kv.scan(Keys.referencedBy(subject, version), (k, v) -> {
            SchemaId id = Keys.referencingId(k);
            boolean[] used = {false};
            kv.scan(Keys.usages(id), (uk, uv) -> {
                Subject user = Keys.usageSubject(uk);
                used[0] = !user.equals(except) && (countSoftDeleted
                        || version(user, Keys.versionOf(uk)).filter(r -> !r.deleted()).isPresent());
                return !used[0];
            });
            if (used[0]) {
                out.add(id);
            }
            return true;
        });
        return out;
    }

    /** Audit entries in journal order from {@code from} (the store seeks there), until the visitor says stop. */
    public void audit(Offset from, java.util.function.Predicate<AuditEntry> visitor) {
        byte[] start = Keys.audit(Offset.of(Math.max(0, from.value())));
        kv.scanFrom(Keys.AUDIT, start, (k, v) -> visitor.test(AuditEntry.decode(Keys.auditOffset(k), v)));
    }

    /**
     * As {@link #audit(Offset, java.util.function.Predicate)}, for entries of a time range
     * ({@code fromMillis}, {@code toMillis}: either null for open): the scan seeks to
     * {@link #firstAuditOffsetFrom} when that is past {@code from}, and stops at the first entry
     * later than {@code toMillis} by more than {@link #AUDIT_CLOCK_SKEW_MILLIS}. Entries just
     * outside the range may still be visited; filter them.
     */
    public void audit(Offset from, Long fromMillis, Long toMillis, java.util.function.Predicate<AuditEntry> visitor) {
        long start = fromMillis == null ? from.value() : Math.max(from.value(), firstAuditOffsetFrom(fromMillis).value());
        long stopAfter = toMillis == null ? Long.MAX_VALUE : toMillis + AUDIT_CLOCK_SKEW_MILLIS;
        audit(Offset.of(start), e -> e.timestamp() <= stopAfter && visitor.test(e));
    }

    /**
     * How far behind in time an audit entry may sit behind an earlier offset: entries are in
     * journal order and carry the writing node's clock, so nodes' clocks may disagree by this much.
     */
    public static final long AUDIT_CLOCK_SKEW_MILLIS = 5 * 60_000L;

    /**
     * The first offset worth scanning for audit entries at or after {@code fromMillis}: a binary
     * search over the trail's offsets (a seek per step) for the first entry at or after
     * {@code fromMillis - AUDIT_CLOCK_SKEW_MILLIS}. Entries after it may still be older than
     * {@code fromMillis}; filter them. 0 when the trail is empty or starts later.
     */
    public Offset firstAuditOffsetFrom(long fromMillis) {
        long target = fromMillis - AUDIT_CLOCK_SKEW_MILLIS;
        long lo = 0;
        long hi = Math.max(0, position().offset().value() + 1); // offsets at or past hi: none
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            AuditEntry at = firstAuditEntryFrom(mid);
            if (at == null || at.timestamp() >= target) {
                hi = mid;
            } else {
                lo = at.offset().value() + 1;
            }
        }
        return Offset.of(lo);
    }

    private AuditEntry firstAuditEntryFrom(long offset) {
        AuditEntry[] first = {null};
        kv.scanFrom(Keys.AUDIT, Keys.audit(Offset.of(offset)), (k, v) -> {
            first[0] = AuditEntry.decode(Keys.auditOffset(k), v);
            return false;
        });
        return first[0];
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
