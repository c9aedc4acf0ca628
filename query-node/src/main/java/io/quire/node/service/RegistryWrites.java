package io.quire.node.service;

import io.quire.node.error.RegistryException;
import io.quire.ids.BlockAllocator;
import io.quire.journal.apply.Applier;
import io.quire.journal.command.Command;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteMode;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.ImportSchema;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.SetConfig;
import io.quire.journal.command.SetMode;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
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
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.RegisterRequest;
import io.quire.node.api.SchemaVersion;
import io.quire.node.api.Written;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.schema.CompatibilityChecker;
import io.quire.node.schema.CompatibilityChecker.Earlier;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.view.AppliedTracker.Applied;
import io.quire.node.write.CommandSubmitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Writes, and the reads that need parsing. The expensive part (parse, canonical form,
 * compatibility) runs on worker threads against the local view; the command carries the level
 * and subject revision it was checked against; a conflict at apply time re-checks and resubmits.
 */
public final class RegistryWrites {

    static final long MAX_PAUSE_MS = 100;
    static final int MAX_WAITING_PER_SUBJECT = 1_000;

    private final ViewAccess access;
    private final SchemaParsing parsing;
    private final CommandSubmitter submitter;
    private final BlockAllocator ids;
    private final Executor workers;
    private final QuireMetrics metrics;
    private final long writeTimeoutMs;
    private final SubjectQueue subjects;

    public RegistryWrites(ViewAccess access, SchemaParsing parsing, CommandSubmitter submitter, BlockAllocator ids,
                          Executor workers, QuireMetrics metrics, long writeTimeoutMs) {
        this.access = access;
        this.parsing = parsing;
        this.submitter = submitter;
        this.ids = ids;
        this.workers = workers;
        this.metrics = metrics;
        this.writeTimeoutMs = writeTimeoutMs;
        this.subjects = new SubjectQueue(MAX_WAITING_PER_SUBJECT);
    }

    /** Registers; {@code normalize} (the query parameter) or the subject's normalize flag normalise the text first. */
    public CompletableFuture<Written<Long>> register(String subject, RegisterRequest req, boolean normalize,
                                                     String principal) {
        validSubject(subject);
        boolean givesId = req.id() != null && req.id() >= 0;
        boolean givesVersion = req.version() != null && req.version() > 0;
        SchemaType type = schemaType(req.schemaType());
        RegistryView view = access.view();
        writable(view, subject);
        if (view.effectiveMode(subject) == Mode.IMPORT) {
            if (!givesId) {
                throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED,
                        "Subject " + subject + " is in import mode: a registration must give the schema's id");
            }
            return importSchema(subject, type, req, normalize || view.effectiveNormalize(subject), principal);
        }
        boolean normalized = normalize || view.effectiveNormalize(subject);
        if (givesId || givesVersion) {
            throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED,
                    "Subject " + subject + " is not in import mode; id and version cannot be given");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(writeTimeoutMs);
        return work(() -> parsing.parse(access.view(), type, req.schema(), req.referencesOrEmpty(), normalized))
                .thenCompose(parsed -> {
                    RegistryView now = access.view();
                    Optional<Written<Long>> known = alreadyInSubject(now, subject, parsed);
                    if (known.isPresent()) {
                        return CompletableFuture.completedFuture(known.get());
                    }
                    if (now.effectiveLevel(subject) == CompatibilityLevel.NONE) {
                        return attempt(subject, parsed, principal, 1, deadline); // nothing to check, nothing to order
                    }
                    return subjects.run(subject, () -> attempt(subject, parsed, principal, 1, deadline));
                });
    }

    /** IMPORT mode: parse, check the id against known content here, let the applier decide the rest. */
    private CompletableFuture<Written<Long>> importSchema(String subject, SchemaType type, RegisterRequest req,
                                                          boolean normalize, String principal) {
        long id = req.id();
        int version = req.version() == null || req.version() < 0 ? 0 : req.version();
        return work(() -> parsing.parse(access.view(), type, req.schema(), req.referencesOrEmpty(), normalize))
                .thenCompose(parsed -> {
                    refuse(Applier.importedIdClash(access.view(), parsed.fingerprint(), id));
                    return submit(new ImportSchema(subject, parsed.type(), parsed.canonical(), parsed.references(),
                            parsed.fingerprint(), id, version), principal, SchemaRegistered.class, SchemaRegistered::id);
                });
    }

    /** The id and offset when this content is already a live version of the subject: nothing to write. */
    private static Optional<Written<Long>> alreadyInSubject(RegistryView view, String subject, ParsedSchema parsed) {
        Optional<Long> existing = view.idForFingerprint(parsed.fingerprint());
        if (existing.isPresent()) {
            for (int v : view.versionsWithId(subject, existing.get())) {
                if (view.version(subject, v).map(r -> !r.deleted()).orElse(false)) {
                    return Optional.of(new Written<>(existing.get(), view.position().offset()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * One check-and-submit round on a worker. A conflict (another node changed the subject, or the
     * level, since the check) is retried after a short, growing, jittered pause until the write
     * timeout; then the caller gets a retryable 50002, never a 50001.
     */
    private CompletableFuture<Written<Long>> attempt(String subject, ParsedSchema parsed, String principal, int n,
                                                     long deadline) {
        return workCompose(() -> {
            if (System.nanoTime() > deadline) { // waited behind the subject's other writes too long
                throw RegistryException.retryLater(ErrorCode.OPERATION_TIMEOUT, 1, "subject '" + subject
                        + "' has too many writes in flight on this node to take this one in time; retry");
            }
            RegistryView view = access.view();
            writable(view, subject);
            Optional<Written<Long>> known = alreadyInSubject(view, subject, parsed);
            if (known.isPresent()) {
                return CompletableFuture.completedFuture(known.get());
            }
            Optional<Long> existing = view.idForFingerprint(parsed.fingerprint());
            CompatibilityLevel level = view.effectiveLevel(subject);
            long revision = view.revision(subject);
            List<String> problems = CompatibilityChecker.check(parsing.support(parsed.type()), level, parsed,
                    earlier(view, subject, level));
            if (!problems.isEmpty()) {
                throw RegistryException.of(ErrorCode.INCOMPATIBLE_SCHEMA, subject, problems);
            }
            CompletableFuture<Long> id = existing.map(CompletableFuture::completedFuture)
                    .orElseGet(() -> freshId(view));
            return id.thenCompose(proposed -> submitter.submit(new RegisterSchema(subject, parsed.type(),
                            parsed.canonical(), parsed.references(), parsed.fingerprint(), proposed, level, revision),
                            principal))
                    .thenCompose(applied -> {
                        if (applied.outcome() instanceof Conflict c) {
                            metrics.writeConflict();
                            long pauseMs = Math.min(MAX_PAUSE_MS, 1L << Math.min(n, 8));
                            pauseMs = pauseMs / 2 + ThreadLocalRandom.current().nextLong(pauseMs + 1);
                            if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMs) > deadline) {
                                throw RegistryException.retryLater(ErrorCode.OPERATION_TIMEOUT, 1,
                                        "subject '" + subject + "' kept changing under " + n
                                                + " attempts (other nodes are writing to it); retry");
                            }
                            return pause(pauseMs).thenCompose(v -> attempt(subject, parsed, principal, n + 1, deadline));
                        }
                        SchemaRegistered r = expect(applied, SchemaRegistered.class);
                        return CompletableFuture.completedFuture(new Written<>(r.id(), applied.offset()));
                    });
        });
    }

    private static CompletableFuture<Void> pause(long ms) {
        return new CompletableFuture<Void>().completeOnTimeout(null, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * Work on a worker. A full worker queue is a failed future here (429), never an exception
     * thrown into whichever thread completed the stage before.
     */
    private <T> CompletableFuture<T> work(Supplier<T> task) {
        try {
            return CompletableFuture.supplyAsync(task, workers);
        } catch (RegistryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private <T> CompletableFuture<T> workCompose(Supplier<CompletableFuture<T>> task) {
        return work(task).thenCompose(f -> f);
    }

    /** An id from this node's blocks that no imported schema holds. */
    private CompletableFuture<Long> freshId(RegistryView view) {
        return ids.nextId(id -> view.schemaBytes(id) != null).toCompletableFuture()
                .thenCompose(id -> view.schemaBytes(id) == null ? CompletableFuture.completedFuture(id) : freshId(view));
    }

    /** The live versions a check at this level compares with, oldest first. */
    private List<Earlier> earlier(RegistryView view, String subject, CompatibilityLevel level) {
        List<Earlier> out = new ArrayList<>();
        if (level == CompatibilityLevel.NONE) {
            return out;
        }
        if (!level.transitive) {
            view.latestLive(subject).ifPresent(v -> out.add(new Earlier(v.version(), parsing.parseStored(view, v.schemaId()))));
            return out;
        }
        for (VersionRecord v : view.versions(subject)) {
            if (!v.deleted()) {
                out.add(new Earlier(v.version(), parsing.parseStored(view, v.schemaId())));
            }
        }
        return out;
    }

    /** {@code POST /subjects/{s}}: is this schema registered under the subject, and as which version. */
    public CompletableFuture<SchemaVersion> lookup(String subject, RegisterRequest req, boolean deleted,
                                                   boolean normalize) {
        SchemaType type = schemaType(req.schemaType());
        return work(() -> {
            RegistryView view = access.view();
            var record = view.subject(subject);
            if (record.isEmpty() || record.get().softDeleted() && !deleted) {
                throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
            }
            ParsedSchema parsed = parsing.parse(view, type, req.schema(), req.referencesOrEmpty(),
                    normalize || view.effectiveNormalize(subject));
            Optional<Long> id = view.idForFingerprint(parsed.fingerprint());
            if (id.isPresent()) {
                List<Integer> versions = view.versionsWithId(subject, id.get());
                for (int i = versions.size() - 1; i >= 0; i--) {
                    VersionRecord v = view.version(subject, versions.get(i)).orElseThrow();
                    if (deleted || !v.deleted()) {
                        return RegistryReads.toApi(subject, v, view.schema(id.get()).orElseThrow());
                    }
                }
            }
            throw new RegistryException(ErrorCode.SCHEMA_NOT_FOUND, "Schema not found");
        });
    }

    /**
     * The compatibility endpoints: against one version ({@code spec} not null, in the directions of
     * the subject's level) or against the versions the level names.
     */
    public CompletableFuture<List<String>> checkCompatibility(String subject, VersionSpec spec, RegisterRequest req) {
        SchemaType type = schemaType(req.schemaType());
        return work(() -> {
            RegistryView view = access.view();
            ParsedSchema parsed = parsing.parse(view, type, req.schema(), req.referencesOrEmpty());
            CompatibilityLevel level = view.effectiveLevel(subject);
            List<Earlier> against;
            if (spec != null && spec.isLatest() && view.latestLive(subject).isEmpty()) {
                return List.of(); // nothing to be compatible with, as Confluent answers
            }
            if (spec != null) {
                VersionRecord v = RegistryReads.find(view, subject, spec, false);
                against = List.of(new Earlier(v.version(), parsing.parseStored(view, v.schemaId())));
            } else {
                against = earlier(view, subject, level);
            }
            return CompatibilityChecker.check(parsing.support(type), level, parsed, against);
        });
    }

    public CompletableFuture<Written<List<Integer>>> deleteSubject(String subject, boolean permanent, String principal) {
        validSubject(subject);
        RegistryView view = access.view();
        if (view.subject(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject); // refused here: nothing to journal
        }
        if (permanent) {
            for (VersionRecord v : view.versions(subject)) {
                refuse(Applier.referenced(view, subject, v.version()));
            }
        }
        return submit(new DeleteSubject(subject, permanent), principal, SubjectDeleted.class, SubjectDeleted::versions);
    }

    public CompletableFuture<Written<Integer>> deleteVersion(String subject, VersionSpec spec, boolean permanent,
                                                             String principal) {
        validSubject(subject);
        int version = spec.number();
        RegistryView view = access.view();
        if (view.subject(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject); // refused here: nothing to journal
        }
        if (!spec.isLatest() && view.version(subject, version).isEmpty()) {
            throw RegistryException.of(ErrorCode.VERSION_NOT_FOUND, version);
        }
        if (spec.isLatest()) {
            Optional<VersionRecord> latest = permanent
                    ? view.versions(subject).stream().reduce((a, b) -> b) : view.latestLive(subject);
            version = latest.orElseThrow(() -> RegistryException.of(ErrorCode.VERSION_NOT_FOUND, "latest")).version();
        }
        if (permanent) {
            refuse(Applier.referenced(view, subject, version));
        }
        return submit(new DeleteVersion(subject, version, permanent), principal, VersionDeleted.class,
                VersionDeleted::version);
    }

    /** Refused here, with the applier's own verdict, when it would refuse: nothing doomed reaches the journal. */
    private static void refuse(Rejected verdict) {
        if (verdict != null) {
            throw new RegistryException(verdict.error(), verdict.message());
        }
    }

    public CompletableFuture<Written<CompatibilityLevel>> setConfig(String subject, String level, Boolean normalize,
                                                                    String principal) {
        if (subject != null) {
            validSubject(subject);
        }
        CompatibilityLevel parsed = level == null && normalize != null ? null : CompatibilityLevel.parse(level)
                .orElseThrow(() -> RegistryException.of(ErrorCode.INVALID_COMPATIBILITY_LEVEL));
        return submit(new SetConfig(subject, parsed, normalize), principal, ConfigSet.class, ConfigSet::level);
    }

    public CompletableFuture<Written<CompatibilityLevel>> deleteConfig(String subject, String principal) {
        RegistryView view = access.view();
        if (subject != null && view.subjectLevel(subject).isEmpty() && view.subjectNormalize(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED, subject);
        }
        if (subject == null && view.globalLevel().isEmpty() && view.globalNormalize().isEmpty()) {
            // Already the default: nothing to change, nothing to journal.
            return CompletableFuture.completedFuture(new Written<>(CompatibilityLevel.DEFAULT, view.position().offset()));
        }
        return submit(new DeleteConfig(subject), principal, ConfigDeleted.class, ConfigDeleted::previous);
    }

    /**
     * Switching to IMPORT needs an empty registry (global) or subject unless {@code force}: ids kept
     * from another registry could otherwise collide with the ones already handed out here.
     */
    public CompletableFuture<Written<Mode>> setMode(String subject, String mode, boolean force, String principal) {
        if (subject != null) {
            validSubject(subject);
        }
        Mode parsed = Mode.parse(mode).orElseThrow(() -> RegistryException.of(ErrorCode.INVALID_MODE,
                "Valid values are READWRITE, READONLY, READONLY_OVERRIDE, IMPORT"));
        RegistryView view = access.view();
        if (parsed == Mode.IMPORT && !force) {
            boolean alreadyImport = subject == null ? view.globalMode().orElse(Mode.DEFAULT) == Mode.IMPORT
                    : view.effectiveMode(subject) == Mode.IMPORT;
            boolean hasSchemas = subject == null ? view.hasSubjects() : view.subject(subject).isPresent();
            if (!alreadyImport && hasSchemas) {
                throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED,
                        "Cannot import since found existing subjects; set force=true to import anyway");
            }
        }
        return submit(new SetMode(subject, parsed), principal, ModeSet.class, ModeSet::mode);
    }

    public CompletableFuture<Written<Mode>> deleteMode(String subject, String principal) {
        if (subject != null && access.view().subjectMode(subject).isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, subject);
        }
        return submit(new DeleteMode(subject), principal, ModeDeleted.class, ModeDeleted::previous);
    }

    private <O extends Outcome, T> CompletableFuture<Written<T>> submit(Command command, String principal,
                                                                         Class<O> type, Function<O, T> value) {
        return submitter.submit(command, principal)
                .thenApply(applied -> new Written<>(value.apply(expect(applied, type)), applied.offset()));
    }

    static <O extends Outcome> O expect(Applied applied, Class<O> type) {
        Outcome o = applied.outcome();
        if (o instanceof Rejected r) {
            throw new RegistryException(r.error(), r.message());
        }
        if (!type.isInstance(o)) {
            throw RegistryException.of(ErrorCode.STORE_ERROR, "unexpected outcome " + o);
        }
        return type.cast(o);
    }

    private static void writable(RegistryView view, String subject) {
        if (!view.effectiveMode(subject).allowsWrites()) {
            throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED, "Subject " + subject + " is in read-only mode");
        }
    }

    static void validSubject(String subject) {
        if (!Subject.isValid(subject)) {
            throw RegistryException.of(ErrorCode.INVALID_SUBJECT, String.valueOf(subject));
        }
    }

    static SchemaType schemaType(String text) {
        return SchemaType.parse(text).orElseThrow(() -> new RegistryException(ErrorCode.INVALID_SCHEMA,
                "Invalid schema type " + text));
    }
}
