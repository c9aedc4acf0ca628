package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.ids.BlockAllocator;
import io.quire.journal.apply.Applier;
import io.quire.journal.apply.TestBreak;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.Registered;
import io.quire.node.api.SchemaVersion;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.Fingerprints;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.search.SchemaTerms;
import io.quire.node.service.RegistrationDecision.Verdict;
import io.quire.node.write.WriteMetrics;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /subjects/{s}/versions} and {@code POST /subjects/{s}}: registering (and importing)
 * a schema under a subject, and looking one up. The expensive part (parse, canonical form,
 * compatibility) runs on workers against the local view; the command carries the level and
 * subject revision it was checked against; writes to one subject queue on this node (ADR 0008),
 * and a conflict with another node is re-checked and resubmitted.
 */
public final class Registrations {

    static final long MAX_PAUSE_MS = 100;
    static final int MAX_WAITING_PER_SUBJECT = 1_000;
    /** The most registrations of one subject decided and journaled together (VersionGroups). */
    static final int MAX_GROUP = 100;

    private final ViewAccess access;
    private final SchemaParsing parsing;
    private final WritePath path;
    private final BlockAllocator ids;
    private final WriteMetrics metrics;
    private final long writeTimeoutMs;
    private final SubjectLanes<VersionGroups.Pending> lanes;

    Registrations(ViewAccess access, SchemaParsing parsing, WritePath path, BlockAllocator ids, WriteMetrics metrics,
                  long writeTimeoutMs) {
        this.access = access;
        this.parsing = parsing;
        this.path = path;
        this.ids = ids;
        this.metrics = metrics;
        this.writeTimeoutMs = writeTimeoutMs;
        VersionGroups groups = new VersionGroups(access, path, new GroupPath());
        // a build broken on purpose (TestBreak) answers one at a time, where its break is
        this.lanes = new SubjectLanes<>(MAX_WAITING_PER_SUBJECT, TestBreak.ANSWER_BEFORE_APPLY ? 1 : MAX_GROUP,
                groups::round);
    }

    /**
     * Registers; {@code normalize} (the query parameter) or the subject's normalize flag normalise
     * the text first. The subject's settings are resolved once; the request is judged alone
     * ({@link RegistrationDecision#admit}) before the parse, a schema the subject holds already is
     * answered before it queues ({@link RegistrationDecision#lookup}, no compatibility check), and what
     * a new version comes to is decided once, where it is submitted: behind the subject's other writes
     * on this node, unless the level is NONE.
     */
    public CompletableFuture<Written<Registered>> register(Subject subject, RegisterRequest req, boolean normalize,
                                                           Principal principal) {
        WritePath.validSchemaSubject(subject);
        SchemaType type = WritePath.schemaType(req.schemaType());
        RegistryView view = access.view();
        SubjectSettings settings = SubjectSettings.of(view, subject, path.writable(view, subject));
        boolean normalized = normalize || settings.normalize();
        RegistrationDecision.admit(view, subject, settings, req).ifPresent(refused -> {
            throw refused.exception();
        });
        if (settings.mode() == Mode.IMPORT) {
            return importSchema(subject, type, req, normalized, principal);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(writeTimeoutMs);
        return path.work(() -> parsing.parse(access.view(), subject.context(), type, req.schema(), req.referencesOrEmpty(),
                normalized))
                .thenCompose(parsed -> {
                    RegistryView now = access.view().memoized();
                    LearningReads reads = parsing.learning(now);
                    RegistrationDecision.Lookup lookup = RegistrationDecision.lookup(reads, now, subject, settings,
                            parsed, req);
                    parsing.remember(reads);
                    if (lookup.known().isPresent()) {
                        return CompletableFuture.completedFuture(known(subject, parsed, lookup.known().get()));
                    }
                    if (settings.level() == CompatibilityLevel.NONE) { // nothing to check, nothing to order
                        return attempt(subject, parsed, normalized, req, principal, 1, deadline, lookup);
                    }
                    VersionGroups.Pending waiting = new VersionGroups.Pending(subject, parsed, normalized, req,
                            principal, deadline, lookup, new CompletableFuture<>());
                    if (!lanes.offer(subject, waiting)) {
                        throw RegistryException.retryLater(ErrorCode.TOO_MANY_REQUESTS, 1, MAX_WAITING_PER_SUBJECT
                                + " writes to subject '" + subject + "' are already waiting on this node; retry");
                    }
                    return waiting.result();
                });
    }

    /** The verdict over {@code view}; what it read from the view is kept in the caches after. */
    private Verdict decide(RegistryView view, Subject subject, SubjectSettings settings, ParsedSchema<?> parsed,
                           RegisterRequest req, RegistrationDecision.Lookup prior) {
        LearningReads reads = parsing.learning(view);
        Verdict verdict = RegistrationDecision.decide(reads, view, subject, settings, parsed, req, prior);
        parsing.remember(reads);
        return verdict;
    }

    private static Written<Registered> known(Subject subject, ParsedSchema<?> parsed, RegistrationDecision.Known k) {
        return new Written<>(answer(subject, k.id(), k.version(), parsed, k.contract()), k.at());
    }

    /**
     * The import command for a schema copied from a followed registry, parsed and checked here on
     * the caller's thread (the follower submits commands itself, in the source's order).
     */
    public ImportSchema prepareCopied(Subject subject, RegisterRequest req) {
        return prepareCopied(subject, req, true);
    }

    /**
     * As {@link #prepareCopied(Subject, RegisterRequest)}; {@code checkId} false leaves the id's
     * check against the view to the applier alone, for an import that goes in a run (whose
     * refusal sends its records again one at a time, checked here).
     */
    public ImportSchema prepareCopied(Subject subject, RegisterRequest req, boolean checkId) {
        WritePath.validSchemaSubject(subject);
        SchemaType type = WritePath.schemaType(req.schemaType());
        SchemaId id = SchemaId.of(req.id());
        Version version = req.version() == null || req.version() < 0 ? Version.NONE : Version.of(req.version());
        DataContract contract = DataContract.forImport(req);
        ParsedSchema<?> parsed = parsing.parse(access.view(), subject.context(), type, req.schema(),
                req.referencesOrEmpty(), false);
        Fingerprint fingerprint = contract.fingerprint(parsed);
        if (checkId) {
            WritePath.refuse(Applier.importedIdClash(access.view(), subject.context(), fingerprint, id));
        }
        return new ImportSchema(subject, parsed.type(), parsed.canonical(), parsed.references(), fingerprint, id, version,
                contract.metadata(), contract.ruleSet(), req.globalId(), req.deprecated(), SchemaTerms.of(parsed));
    }

    /** IMPORT mode: parse, check the id against known content here, let the applier decide the rest. */
    private CompletableFuture<Written<Registered>> importSchema(Subject subject, SchemaType type, RegisterRequest req,
                                                                boolean normalize, Principal principal) {
        SchemaId id = SchemaId.of(req.id());
        Version version = req.version() == null || req.version() < 0 ? Version.NONE : Version.of(req.version());
        DataContract contract = DataContract.forImport(req);
        return path.work(() -> parsing.parse(access.view(), subject.context(), type, req.schema(), req.referencesOrEmpty(),
                normalize))
                .thenCompose(parsed -> {
                    Fingerprint fingerprint = contract.fingerprint(parsed); // the id clash is the applier's verdict in submit
                    return path.submit(new ImportSchema(subject, parsed.type(), parsed.canonical(), parsed.references(),
                            fingerprint, id, version, contract.metadata(), contract.ruleSet(), req.globalId(),
                            req.deprecated(), SchemaTerms.of(parsed)), principal,
                            SchemaRegistered.class, r -> answer(subject, r.id(), r.version(), parsed, contract));
                });
    }

    /** What the client is told: the id, and the stored version when there is a data contract (as Confluent). */
    private static Registered answer(Subject subject, SchemaId id, Version version, ParsedSchema<?> parsed,
                                     DataContract contract) {
        SchemaGuid guid = SchemaGuid.of(parsed.canonical(), parsed.references(), contract.metadata(), contract.ruleSet());
        if (contract.isNone()) {
            return new Registered(id, guid, null);
        }
        return new Registered(id, guid, new SchemaVersion(subject, version, id, guid,
                parsed.type() == SchemaType.AVRO ? null : parsed.type().name(), parsed.references(),
                contract.metadata(), contract.ruleSet(), parsed.canonical(), null));
    }

    /**
     * One check-and-submit round on a worker: the subject's settings resolved from this round's view
     * and the registration decided against it (the first round takes what was looked up before the
     * queue if the subject has not moved since). A conflict (another node changed the subject, or the
     * level, since the check) is retried after a short, growing, jittered pause until the write
     * timeout; then the caller gets a retryable 50002, never a 50001. The data contract is merged
     * anew each round: it inherits from the subject's latest version, which may have changed.
     */
    private CompletableFuture<Written<Registered>> attempt(Subject subject, ParsedSchema<?> parsed, boolean normalized,
                                                           RegisterRequest req, Principal principal, int n,
                                                           long deadline, RegistrationDecision.Lookup prior) {
        return path.workCompose(() -> {
            if (System.nanoTime() > deadline) { // waited behind the subject's other writes too long
                throw RegistryException.retryLater(ErrorCode.OPERATION_TIMEOUT, 1, "subject '" + subject
                        + "' has too many writes in flight on this node to take this one in time; retry");
            }
            RegistryView view = access.view().memoized(); // this round's reads, each key once
            Mode mode = path.writable(view, subject);
            Verdict verdict = decide(view, subject, SubjectSettings.of(view, subject, mode), parsed, req, prior);
            if (verdict instanceof RegistrationDecision.Known k) {
                return CompletableFuture.completedFuture(known(subject, parsed, k));
            }
            if (verdict instanceof RegistrationDecision.Refused r) {
                throw r.exception();
            }
            RegistrationDecision.Proposed proposal = (RegistrationDecision.Proposed) verdict;
            DataContract contract = proposal.contract();
            CompletableFuture<SchemaId> id = proposal.existingId().map(CompletableFuture::completedFuture)
                    .orElseGet(() -> freshId(subject.context()));
            if (TestBreak.ANSWER_BEFORE_APPLY) { // a build broken on purpose (TestBreak), never otherwise
                return id.thenApply(proposed -> {
                    path.journal().submit(proposal.command(proposed), principal);
                    return new Written<>(answer(subject, proposed, Version.of(1), parsed, contract), Offset.NONE);
                });
            }
            return id.thenCompose(proposed -> path.journal().submit(proposal.command(proposed), principal))
                    .thenCompose(applied -> {
                        if (applied.outcome() instanceof Conflict c) {
                            metrics.writeConflict();
                            CompletableFuture<Void> pause = conflictPause(n, deadline);
                            if (pause == null) {
                                throw RegistryException.retryLater(ErrorCode.OPERATION_TIMEOUT, 1,
                                        "subject '" + subject + "' kept changing under " + n
                                                + " attempts (other nodes are writing to it); retry");
                            }
                            return pause.thenCompose(v -> attempt(subject, parsed, normalized, req, principal,
                                    n + 1, deadline, null));
                        }
                        SchemaRegistered r = WritePath.expect(applied, SchemaRegistered.class);
                        return CompletableFuture.completedFuture(registered(subject, parsed, normalized, proposal, r,
                                applied.offset()));
                    });
        });
    }

    /** A registration applied here: the caches learn it (the next check reads it), and the answer. */
    private Written<Registered> registered(Subject subject, ParsedSchema<?> parsed, boolean normalized,
                                           RegistrationDecision.Proposed proposal, SchemaRegistered r, Offset at) {
        DataContract contract = proposal.contract();
        parsing.registered(subject.context(), r.id(), r.version(), parsed, normalized);
        if (r.created()) { // the latest it was checked against is no longer the one the next check reads
            proposal.latestOnly().ifPresent(before -> parsing.superseded(subject.context(), before, r.id()));
        }
        if (contract.isNone() && r.version().number() > 1) { // as registered(): not a first version
            parsing.registeredWithoutContract(subject.context(), r.id()); // and inherits from it
        }
        Registered answer = answer(subject, r.id(), r.version(), parsed, contract);
        if (r.created() && !proposal.lintWarnings().isEmpty()) {
            answer = answer.withLintWarnings(proposal.lintWarningLines());
        }
        return new Written<>(answer, at);
    }

    /** What a round of {@link VersionGroups} asks of the one-at-a-time path. */
    private final class GroupPath implements VersionGroups.Path {

        @Override
        public Verdict decideFirst(RegistryView view, VersionGroups.Pending p) {
            Mode mode = path.writable(view, p.subject());
            return decide(view, p.subject(), SubjectSettings.of(view, p.subject(), mode), p.parsed(), p.req(), p.lookup());
        }

        @Override
        public LearningReads learning(RegistryView view) {
            return parsing.learning(view);
        }

        @Override
        public Verdict decideOver(LearningReads reads, RegistryView view, VersionGroups.Pending p) {
            Mode mode = path.writable(view, p.subject());
            // read through the caches, never into them: what the overlay holds is not in the registry yet
            return RegistrationDecision.decide(reads, view, p.subject(), SubjectSettings.of(view, p.subject(), mode),
                    p.parsed(), p.req());
        }

        @Override
        public SchemaId idNow(RegistryView view, Subject subject) {
            Context context = subject.context();
            // none ready: the registration goes alone and waits for the lease there; asking with
            // nextId would leave a waiter the lease hands an id that nobody then uses
            Long next = TestBreak.REUSE_IDS ? ids.tryNextId(id -> false)
                    : ids.tryNextId(id -> view.holdsSchemaId(context, SchemaId.of(id)));
            return next == null ? null : SchemaId.of(next);
        }

        @Override
        public CompletableFuture<Written<Registered>> alone(VersionGroups.Pending p) {
            return attempt(p.subject(), p.parsed(), p.normalized(), p.req(), p.principal(), 1, p.deadline(), p.lookup());
        }

        @Override
        public Written<Registered> registered(VersionGroups.Pending p, RegistrationDecision.Proposed proposal,
                                              SchemaRegistered r, Offset at) {
            return Registrations.this.registered(p.subject(), p.parsed(), p.normalized(), proposal, r, at);
        }

        @Override
        public void settle(VersionGroups.Pending p, Verdict verdict) {
            if (verdict instanceof RegistrationDecision.Known k) {
                p.result().complete(known(p.subject(), p.parsed(), k));
            } else if (verdict instanceof RegistrationDecision.Refused r) {
                p.result().completeExceptionally(r.exception());
            }
        }
    }

    /**
     * The pause after conflict round {@code n}: growing, jittered, at most {@link #MAX_PAUSE_MS}; null
     * when it would end past {@code deadline} (nanoTime), and the caller gives up with a retryable 50002.
     */
    static CompletableFuture<Void> conflictPause(int n, long deadline) {
        long ms = Math.min(MAX_PAUSE_MS, 1L << Math.min(n, 8));
        ms = ms / 2 + ThreadLocalRandom.current().nextLong(ms + 1);
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms) > deadline) {
            return null;
        }
        return new CompletableFuture<Void>().completeOnTimeout(null, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * An id from this node's blocks that no imported schema of the context holds. An id above the
     * highest stored one is free without a read (the view keeps that id in memory); the view is the
     * current one, not the round's memo, since an import may have taken the id since.
     */
    private CompletableFuture<SchemaId> freshId(Context context) {
        if (TestBreak.REUSE_IDS) { // a build broken on purpose (TestBreak), never otherwise
            return ids.nextId().toCompletableFuture().thenApply(SchemaId::of);
        }
        return ids.nextId(id -> access.view().holdsSchemaId(context, SchemaId.of(id))).toCompletableFuture()
                .thenApply(SchemaId::of)
                .thenCompose(id -> !access.view().holdsSchemaId(context, id) ? CompletableFuture.completedFuture(id)
                        : freshId(context));
    }

    /** {@code POST /subjects/{s}}: is this schema registered under the subject, and as which version. */
    public CompletableFuture<SchemaVersion> lookup(Subject subject, RegisterRequest req, boolean deleted,
                                                   boolean normalize) {
        SchemaType type = WritePath.schemaType(req.schemaType());
        return path.work(() -> {
            RegistryView view = access.view();
            var record = view.subject(subject);
            if (record.isEmpty() || record.get().softDeleted() && !deleted) {
                throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
            }
            ParsedSchema<?> parsed = parsing.parse(view, subject.context(), type, req.schema(), req.referencesOrEmpty(),
                    normalize || view.config().effectiveNormalize(subject));
            DataContract asked = new DataContract(req.metadata(), req.ruleSet());
            Optional<SchemaId> id = view.ids().idForFingerprint(subject.context(), asked.fingerprint(parsed));
            if (id.isPresent()) {
                List<Version> versions = view.usages().versionsWithId(subject, id.get());
                for (int i = versions.size() - 1; i >= 0; i--) {
                    VersionRecord v = view.version(subject, versions.get(i)).orElseThrow();
                    if (deleted || !v.deleted()) {
                        return SubjectReads.toApi(subject, v, view.schemaOf(subject, v).orElseThrow());
                    }
                }
            }
            if (asked.isNone()) {
                // A client that looks up the bare schema finds it under whatever contract it was stored with.
                List<VersionRecord> all = view.versions(subject);
                for (int i = all.size() - 1; i >= 0; i--) {
                    VersionRecord v = all.get(i);
                    StoredSchema s = view.schemaOf(subject, v).orElseThrow();
                    if ((deleted || !v.deleted()) && (s.metadata() != null || s.ruleSet() != null)
                            && Fingerprints.of(s.schemaType(), s.schema(), s.references()).equals(parsed.fingerprint())) {
                        return SubjectReads.toApi(subject, v, s);
                    }
                }
            }
            throw new RegistryException(ErrorCode.SCHEMA_NOT_FOUND, "Schema not found");
        });
    }
}
