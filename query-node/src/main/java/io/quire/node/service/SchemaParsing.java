package io.quire.node.service;

import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.AvroSupport;
import io.quire.node.schema.JsonSchemaSupport;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.ProtobufSupport;
import io.quire.node.schema.SchemaSupport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parsing at the edge: picks the language, resolves references against the local view and keeps
 * recently parsed stored schemas (by id, which never changes content) so compatibility checks do
 * not re-parse the same earlier versions again and again. The cache is bounded by an estimate of
 * the memory its entries hold, not by their number: a subject of large schemas keeps fewer.
 */
public final class SchemaParsing {

    /** The memory the cache of parsed schemas may hold, by {@link #weight}'s estimate. */
    static final long CACHE_BYTES = 64L << 20;

    private final Map<SchemaType, SchemaSupport<?>> languages = new EnumMap<>(SchemaType.class);
    private record Key(Context context, SchemaId id) {
    }

    private final WeighedLru<Key, ParsedSchema<?>> byId;
    private final WeighedLru<Key, DataContract> contracts;
    private record FingerprintKey(Context context, Fingerprint fingerprint) {
    }

    private final WeighedLru<FingerprintKey, SchemaId> fingerprints;

    private final QuireConfig.Limits limits;
    private final int maxResolvedReferences;

    public SchemaParsing(QuireConfig.Limits limits, boolean protobufStrictReserved) {
        this(limits, MAX_RESOLVED_REFERENCES, protobufStrictReserved, CACHE_BYTES);
    }

    SchemaParsing(QuireConfig.Limits limits, int maxResolvedReferences, boolean protobufStrictReserved) {
        this(limits, maxResolvedReferences, protobufStrictReserved, CACHE_BYTES);
    }

    SchemaParsing(QuireConfig.Limits limits, int maxResolvedReferences, boolean protobufStrictReserved,
                  long cacheBudget) {
        this.byId = new WeighedLru<>(cacheBudget);
        this.contracts = new WeighedLru<>(Math.min(CONTRACT_CACHE_BYTES, cacheBudget));
        this.fingerprints = new WeighedLru<>(Math.min(FINGERPRINT_CACHE_BYTES, cacheBudget));
        this.limits = limits;
        this.maxResolvedReferences = maxResolvedReferences;
        languages.put(SchemaType.AVRO, new AvroSupport());
        languages.put(SchemaType.JSON, new JsonSchemaSupport());
        languages.put(SchemaType.PROTOBUF, new ProtobufSupport(protobufStrictReserved));
    }

    public SchemaSupport<?> support(SchemaType type) {
        SchemaSupport<?> s = languages.get(type);
        if (s == null) {
            throw new RegistryException(ErrorCode.INVALID_SCHEMA,
                    "Invalid schema: schema type " + type + " is not supported yet by this registry");
        }
        return s;
    }

    /** As {@link #parse(RegistryView, Context, SchemaType, String, List)}, in the type's normalised form when asked. */
    public ParsedSchema<?> parse(RegistryView view, Context context, SchemaType type, String text,
                                 List<SchemaReference> references, boolean normalize) {
        ParsedSchema<?> parsed = parse(view, context, type, text, references);
        if (!normalize) {
            return parsed;
        }
        String normal = support(type).normalize(parsed.canonical());
        return parsed.withCanonical(normal);
    }

    /**
     * Parses a schema of a subject in {@code context}: the subjects its references name are read
     * in that context unless they name their own.
     */
    public ParsedSchema<?> parse(RegistryView view, Context context, SchemaType type, String text,
                                 List<SchemaReference> references) {
        if (text == null || text.isBlank()) {
            throw new RegistryException(ErrorCode.INVALID_SCHEMA, "Invalid schema: empty schema");
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxSchemaBytes()) {
            throw RegistryException.of(ErrorCode.SCHEMA_TOO_LARGE,
                    bytes + " bytes, the limit is " + limits.maxSchemaBytes());
        }
        if (references.size() > limits.maxReferences()) {
            throw new RegistryException(ErrorCode.INVALID_SCHEMA, "Invalid schema: " + references.size()
                    + " references, the limit is " + limits.maxReferences());
        }
        List<SchemaReference> pinned = pin(view, context, references);
        return knownForm(view, context, support(type).parse(text, pinned, resolve(view, context, pinned, 1)));
    }

    /**
     * The schema in the form the view knows it by: when its canonical text is new but an earlier
     * release stored the same content under another text (Avro references inlined, ADR 0006), the
     * stored form, so that the content keeps its id.
     */
    static ParsedSchema<?> knownForm(RegistryView view, Context context, ParsedSchema<?> parsed) {
        Optional<? extends ParsedSchema<?>> legacy = parsed.legacy();
        if (legacy.isEmpty() || view.ids().idForFingerprint(context, parsed.fingerprint()).isPresent()) {
            return parsed;
        }
        return view.ids().idForFingerprint(context, legacy.get().fingerprint()).isPresent() ? legacy.get() : parsed;
    }

    /** References as stored: a version of -1 ("latest") becomes the subject's latest live version now. */
    static List<SchemaReference> pin(RegistryView view, Context context, List<SchemaReference> references) {
        List<SchemaReference> out = new ArrayList<>(references.size());
        for (SchemaReference r : references) {
            if (r.name() == null || r.subject() == null) {
                throw new RegistryException(ErrorCode.INVALID_SCHEMA, "Invalid schema: a reference needs a name and a subject");
            }
            if (r.version().isLatest()) {
                Version latest = view.latestLive(context.qualify(r.subject())).map(VersionRecord::version).orElseThrow(
                        () -> new RegistryException(ErrorCode.INVALID_SCHEMA, "Invalid schema: reference " + r.name()
                                + " to subject " + r.subject() + " (latest) does not exist"));
                out.add(new SchemaReference(r.name(), r.subject(), latest));
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /** A stored schema of a context, parsed once and cached by context and id. */
    public ParsedSchema<?> parseStored(RegistryView view, Context context, SchemaId id) {
        ParsedSchema<?> cached = cachedParsed(context, id);
        if (cached != null) {
            return cached;
        }
        ParsedSchema<?> parsed = parseStoredUncached(view, context, id);
        keep(new Key(context, id), parsed);
        return parsed;
    }

    ParsedSchema<?> cachedParsed(Context context, SchemaId id) {
        return byId.get(new Key(context, id));
    }

    ParsedSchema<?> parseStoredUncached(RegistryView view, Context context, SchemaId id) {
        StoredSchema stored = view.schema(context, id).orElseThrow(() -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id));
        return parse(view, context, stored.schemaType(), stored.schema(), stored.references());
    }

    /**
     * The reads of a registration's decision over {@code view}, through the caches without filling
     * them: what it reads from the view it keeps, for {@link #remember} once the decision is made.
     */
    LearningReads learning(RegistryView view) {
        return new LearningReads(this, view);
    }

    /** Keeps in the caches what a decision read from the view. */
    void remember(LearningReads read) {
        read.parsed.forEach((k, p) -> keep(new Key(k.context(), k.id()), p));
        read.contracts.forEach((k, c) -> contracts.put(new Key(k.context(), k.id()), c.contract(),
                contractWeight(c.contract(), c.storedBytes())));
        read.ids.forEach((k, id) -> fingerprints.put(new FingerprintKey(k.context(), k.fingerprint()), id,
                fingerprintWeight(k.fingerprint())));
    }

    /**
     * Keeps a schema just registered under {@code id} as that id's parsed form, so that the next
     * registration to its subject, checked against it, does not parse it again. Only an Avro
     * schema is kept, and only one whose canonical text is the text stored (not normalised since,
     * not stored in an earlier release's form): Avro's schema written as text parses back to an
     * equal schema, so it is the schema {@link #parseStored} would parse. A Protobuf or JSON
     * schema parsed from its rendering need not be the same tree (locations, comments), so those
     * are parsed from what was stored, as before.
     *
     * <p>A subject's first version is not kept: most subjects never get a second, and under a
     * stream of new subjects every parse kept lives until the cache evicts it, long enough for the
     * collector to copy it from space to space (young pauses of ~50 ms against ~13 ms without,
     * measured at ~12,000 new subjects/s). A second version's check parses the first from what
     * was stored, once.
     */
    void registered(Context context, SchemaId id, Version version, ParsedSchema<?> parsed, boolean normalized) {
        if (version.number() > 1 && parsed.type() == SchemaType.AVRO && !normalized
                && parsed.legacyCanonical() == null) {
            keep(new Key(context, id), parsed);
        }
    }

    /**
     * Forgets the parsed form and contract of {@code before}, the latest version a registration was
     * checked against alone, now that {@code now} is the subject's latest: the subject's next check
     * reads {@code now}. Kept until evicted, a stream of new versions would fill the caches with
     * versions no check reads, each living long enough for the collector to copy it to the old
     * generation. A subject that shares the content, or a transitive check later, parses it again.
     */
    void superseded(Context context, SchemaId before, SchemaId now) {
        if (!before.equals(now)) {
            Key key = new Key(context, before);
            byId.remove(key);
            contracts.remove(key);
        }
    }

    private void keep(Key key, ParsedSchema<?> parsed) {
        byId.put(key, parsed, weight(parsed));
    }

    /**
     * What a parsed schema holds in memory, estimated from its text: the parsed forms (Avro's
     * schema tree, a JSON document, Wire's elements) take several times the bytes of the text.
     */
    static long weight(ParsedSchema<?> p) {
        return 512 + 16L * p.canonical().length();
    }

    /** The memory the cache of stored contracts may hold, by {@link #contractWeight}'s estimate. */
    static final long CONTRACT_CACHE_BYTES = 8L << 20;
    /**
     * The metadata and rule set stored with {@code id} in {@code context} (a contract of neither
     * when it has none), or null when no schema of the context has that id. Every registration
     * inherits its subject's latest contract, so each one asks this for the latest version's id;
     * reading and decoding the whole stored schema for it took over a third of the workers' time under
     * evolving subjects. Cached by context and id, as the parsed schemas are: the view never
     * changes or removes the schema it stores under an id.
     */
    DataContract storedContract(RegistryView view, Context context, SchemaId id) {
        DataContract cached = cachedContract(context, id);
        if (cached != null) {
            return cached;
        }
        byte[] bytes = view.schemaBytes(context, id);
        if (bytes == null) {
            return null;
        }
        DataContract contract = contractOf(bytes);
        contracts.put(new Key(context, id), contract, contractWeight(contract, bytes.length));
        return contract;
    }

    DataContract cachedContract(Context context, SchemaId id) {
        return contracts.get(new Key(context, id));
    }

    static DataContract contractOf(byte[] storedBytes) {
        StoredSchema stored = StoredSchema.decode(storedBytes);
        return stored.metadata() == null && stored.ruleSet() == null ? DataContract.NONE
                : new DataContract(stored.metadata(), stored.ruleSet());
    }

    /**
     * Keeps that {@code id} holds no contract, for a registration that stored or found it without
     * one: its content was looked up by a fingerprint without a contract, which only content stored
     * without one has ({@code Fingerprints.withContract}). The next registration to the subject
     * inherits from it without a read. A contract that is not empty is left to the first read, and
     * so is a subject's first version, for the reason {@link #registered} gives.
     */
    void registeredWithoutContract(Context context, SchemaId id) {
        Key key = new Key(context, id);
        if (contracts.get(key) == null) {
            contracts.put(key, DataContract.NONE, contractWeight(DataContract.NONE, 0));
        }
    }

    /**
     * What a cached contract holds in memory, estimated: the entry and its key, and for a contract
     * that is not empty four times the stored schema's bytes, which hold it in text.
     */
    static long contractWeight(DataContract c, int storedBytes) {
        return 160 + (c.isNone() ? 0 : 4L * storedBytes);
    }

    /** The memory the cache of fingerprints' ids may hold, by {@link #fingerprintWeight}'s estimate. */
    static final long FINGERPRINT_CACHE_BYTES = 8L << 20;

    /**
     * The id of the content with {@code fingerprint} in {@code context}, if the view stores it. A
     * registration asks this twice (the early check for a repeat, then its round's), and for
     * content stored before (a client registering a schema again, the same schema under several
     * subjects) each was a lookup in the view's files. An id found is cached: the view writes a
     * fingerprint's id with the content and never changes or removes it. An absent one is not,
     * since it may be stored at any moment; nor is the id of content a registration just stored,
     * which most often is never asked for again and would only keep the collector copying it.
     */
    Optional<SchemaId> idForFingerprint(RegistryView view, Context context, Fingerprint fingerprint) {
        SchemaId cached = cachedId(context, fingerprint);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<SchemaId> found = view.ids().idForFingerprint(context, fingerprint);
        found.ifPresent(id -> fingerprints.put(new FingerprintKey(context, fingerprint), id,
                fingerprintWeight(fingerprint)));
        return found;
    }

    SchemaId cachedId(Context context, Fingerprint fingerprint) {
        return fingerprints.get(new FingerprintKey(context, fingerprint));
    }

    /** An entry of the fingerprint cache in memory, estimated: the map's entry, the key, the id and the key bytes. */
    static long fingerprintWeight(Fingerprint fingerprint) {
        return 192 + 16L + fingerprint.keyLength();
    }

    /** The caches' estimated sizes and entries now (for tests and metrics). */
    long cachedContractBytes() {
        return contracts.bytes();
    }

    int cachedContracts() {
        return contracts.size();
    }

    long cachedFingerprintBytes() {
        return fingerprints.bytes();
    }

    int cachedFingerprints() {
        return fingerprints.size();
    }

    long cachedBytes() {
        return byId.bytes();
    }

    int cachedSchemas() {
        return byId.size();
    }

    /** Reference versions one request may resolve, all levels together: beyond it, 42201. */
    static final int MAX_RESOLVED_REFERENCES = 1_000;

    /**
     * Every schema the references name, transitively, dependencies first, by reference name. Each
     * subject version is resolved once per request, so a diamond of references costs one visit
     * per version, not one per path; the number of versions visited is bounded.
     */
    private Map<String, String> resolve(RegistryView view, Context context, List<SchemaReference> references, int depth) {
        Map<String, String> resolved = new LinkedHashMap<>();
        resolveInto(view, context, references, depth, resolved, new HashSet<>());
        return resolved;
    }

    private void resolveInto(RegistryView view, Context context, List<SchemaReference> references, int depth,
                             Map<String, String> resolved, Set<String> visited) {
        if (!references.isEmpty() && depth > limits.maxReferenceDepth()) {
            throw new RegistryException(ErrorCode.INVALID_SCHEMA,
                    "Invalid schema: references nest deeper than " + limits.maxReferenceDepth());
        }
        for (SchemaReference r : references) {
            if (r.name() == null || r.subject() == null) {
                throw new RegistryException(ErrorCode.INVALID_SCHEMA, "Invalid schema: a reference needs a name and a subject");
            }
            Subject named = context.qualify(r.subject());
            VersionRecord v = (r.version().isLatest() ? view.latestLive(named)
                    : view.version(named, r.version()).filter(x -> !x.deleted()))
                    .orElseThrow(() -> new RegistryException(ErrorCode.INVALID_SCHEMA,
                            "Invalid schema: reference " + r.name() + " to subject " + r.subject() + " version "
                                    + r.version() + " does not exist"));
            StoredSchema target = view.schemaOf(named, v).orElseThrow();
            if (visited.add(named.name() + '\u0000' + v.version())) {
                if (visited.size() > maxResolvedReferences) {
                    throw new RegistryException(ErrorCode.INVALID_SCHEMA, "Invalid schema: its references name more than "
                            + maxResolvedReferences + " schema versions");
                }
                resolveInto(view, named.context(), target.references(), depth + 1, resolved, visited);
            }
            resolved.putIfAbsent(r.name(), target.schema());
        }
    }
}
