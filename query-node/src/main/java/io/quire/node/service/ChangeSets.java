package io.quire.node.service;

import io.quire.client.ChangeSetAnswer;
import io.quire.client.ChangeSetAnswer.StepAnswer;
import io.quire.client.ChangeSetRequest;
import io.quire.client.RegisterRequest;
import io.quire.ids.BlockAllocator;
import io.quire.journal.JournalContract;
import io.quire.journal.apply.Applier;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.ApplyChangeSet;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.DeleteConfig;
import io.quire.journal.command.DeleteSubject;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.ChangeSetApplied;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.OverlayKv;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.ParsedSchema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /changesets}: changes to several subjects as one journal record, every one of them
 * applied or none. The steps are built here in order, each decided over the view as the steps
 * before it leave it (a registration parsed, its references pinned and its compatibility checked
 * against versions an earlier step makes): the first refusal refuses the whole set before anything
 * is journaled. The applier decides the set again the same way, with the planned versions as
 * preconditions, and writes all of it or nothing. A conflict (another writer moved a subject since)
 * builds the set again, until the write timeout.
 */
public final class ChangeSets {

    /** A change set's record must fit the journal's record limit, with room for its envelope. */
    static final int MAX_RECORD_BYTES = JournalContract.MAX_RECORD_BYTES - 64 * 1024;
    static final int MAX_STEPS = 10_000;

    private final ViewAccess access;
    private final SchemaParsing parsing;
    private final WritePath path;
    private final BlockAllocator ids;
    private final long writeTimeoutMs;

    ChangeSets(ViewAccess access, SchemaParsing parsing, WritePath path, BlockAllocator ids, long writeTimeoutMs) {
        this.access = access;
        this.parsing = parsing;
        this.path = path;
        this.ids = ids;
        this.writeTimeoutMs = writeTimeoutMs;
    }

    /** The set as built: the command to journal (null when every step is already so) and the answer per step. */
    private record Built(ApplyChangeSet command, List<StepAnswer> answers, List<Integer> journaled) {
    }

    public CompletableFuture<Written<ChangeSetAnswer>> apply(ChangeSetRequest req, Principal principal) {
        String changeId = req.id() == null || req.id().isBlank() ? "cs-" + UUID.randomUUID() : req.id().strip();
        List<Subject> subjects = validate(req);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(writeTimeoutMs);
        int registrations = (int) req.steps().stream().filter(s -> s.register() != null).count();
        return attempt(req, changeId, subjects, registrations, principal, 1, deadline);
    }

    private CompletableFuture<Written<ChangeSetAnswer>> attempt(ChangeSetRequest req, String changeId,
                                                                List<Subject> subjects, int registrations,
                                                                Principal principal, int n, long deadline) {
        return freshIds(registrations, new ArrayDeque<>()).thenCompose(fresh -> path.workCompose(() -> {
            Built built = build(req, changeId, subjects, fresh);
            if (built.command() == null) { // every step is so already: nothing to journal
                return CompletableFuture.completedFuture(new Written<>(new ChangeSetAnswer(changeId, -1,
                        built.answers()), access.view().position().offset()));
            }
            return path.journal().submit(built.command(), principal).thenCompose(applied -> {
                Outcome o = applied.outcome();
                if (o instanceof Conflict c) {
                    CompletableFuture<Void> pause = Registrations.conflictPause(n, deadline);
                    if (pause == null) {
                        throw RegistryException.retryLater(ErrorCode.OPERATION_TIMEOUT, 1, c.reason() + "; retry");
                    }
                    return pause.thenCompose(v -> attempt(req, changeId, subjects, registrations, principal, n + 1,
                                    deadline));
                }
                if (o instanceof Rejected r) {
                    throw new RegistryException(r.error(), r.message());
                }
                ChangeSetApplied done = WritePath.expect(applied, ChangeSetApplied.class);
                List<StepAnswer> answers = new ArrayList<>(built.answers());
                for (int i = 0; i < done.steps().size(); i++) {
                    int at = built.journaled().get(i);
                    if (done.steps().get(i).outcome() instanceof SchemaRegistered r) {
                        StepAnswer a = answers.get(at);
                        answers.set(at, new StepAnswer(a.subject(), r.created() ? "registered" : "unchanged",
                                (int) r.id().value(), r.version().number()));
                    }
                }
                return CompletableFuture.completedFuture(new Written<>(new ChangeSetAnswer(changeId,
                        applied.offset().value(), answers), applied.offset()));
            });
        }));
    }

    /** {@code count} ids from this node's blocks (an id an import holds is passed over when it is used). */
    private CompletableFuture<Deque<Long>> freshIds(int count, Deque<Long> into) {
        if (into.size() >= count) {
            return CompletableFuture.completedFuture(into);
        }
        return ids.nextId().toCompletableFuture().thenCompose(id -> {
            into.add(id);
            return freshIds(count, into);
        });
    }

    /** The request's own checks, before anything is read: its size, each step's shape, one step per subject and kind. */
    private static List<Subject> validate(ChangeSetRequest req) {
        if (req.steps().isEmpty() || req.steps().size() > MAX_STEPS) {
            throw new RegistryException(ErrorCode.UNPROCESSABLE, "a change set has 1 to " + MAX_STEPS + " steps, not "
                    + req.steps().size());
        }
        List<Subject> subjects = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < req.steps().size(); i++) {
            ChangeSetRequest.Step s = req.steps().get(i);
            if (s == null || s.subject() == null) {
                throw stepError(i, req, null, ErrorCode.UNPROCESSABLE, "a step names its subject");
            }
            Subject subject = Subject.of(s.subject());
            int kinds = (s.register() != null ? 1 : 0) + (s.config() != null ? 1 : 0) + (s.delete() != null ? 1 : 0)
                    + (s.deletesConfig() ? 1 : 0);
            if (kinds != 1) {
                throw stepError(i, req, subject, ErrorCode.UNPROCESSABLE,
                        "a step is exactly one of register, config, deleteConfig and delete");
            }
            String kind = s.register() != null ? "register" : s.config() != null || s.deletesConfig() ? "config"
                    : "delete";
            if (!seen.add(kind + '\u0000' + subject.name())) {
                throw stepError(i, req, subject, ErrorCode.UNPROCESSABLE,
                        "a change set changes a subject's " + kind + " once");
            }
            try {
                if (s.register() != null) {
                    WritePath.validSchemaSubject(subject);
                } else {
                    WritePath.validSubject(subject);
                }
            } catch (RegistryException e) {
                throw stepError(i, req, subject, e.error(), e.getMessage());
            }
            subjects.add(subject);
        }
        for (ChangeSetRequest.Expected x : req.expect()) {
            if (x == null || x.subject() == null || (x.version() != null && x.version() < 1)) {
                throw new RegistryException(ErrorCode.UNPROCESSABLE, "an expectation names a subject and its latest "
                        + "version (1 or more), or no version");
            }
        }
        return subjects;
    }

    /**
     * The steps decided one over another on this node's view: each registration parsed (its
     * references pinned over the earlier steps), looked up and checked as {@code POST
     * /subjects/{s}/versions} would, then tried with the applier's own rules so that the next step
     * sees what it writes. Throws the first refusal with its step named.
     */
    private Built build(ChangeSetRequest req, String changeId, List<Subject> subjects, Deque<Long> fresh) {
        RegistryView now = access.view();
        WritePath.refuse(access.refusedWrite(now));
        List<ApplyChangeSet.Expected> expect = req.expect().stream().map(x -> new ApplyChangeSet.Expected(
                Subject.of(x.subject()), x.version() == null ? null : Version.of(x.version()))).toList();
        // the applier's own check, before anything is parsed for a stale plan; it checks again when applied
        WritePath.refuse(Applier.expectationsRefusal(now, changeId, expect));
        OverlayKv overlay = new OverlayKv(now.kv());
        RegistryView view = new RegistryView(overlay);
        Offset at = Offset.of(now.position().offset().value() + 1);
        long timestamp = System.currentTimeMillis();
        List<ApplyChangeSet.Step> steps = new ArrayList<>();
        List<StepAnswer> answers = new ArrayList<>();
        List<Integer> journaled = new ArrayList<>();
        for (int i = 0; i < req.steps().size(); i++) {
            ChangeSetRequest.Step s = req.steps().get(i);
            Subject subject = subjects.get(i);
            List<Command> commands;
            StepAnswer answer;
            try {
                if (s.register() != null) {
                    RegistrationDecision.Verdict verdict = decide(view, subject, s.register(),
                            Boolean.TRUE.equals(s.normalize()));
                    if (verdict instanceof RegistrationDecision.Known k) {
                        answers.add(new StepAnswer(s.subject(), "unchanged", (int) k.id().value(),
                                k.version().number()));
                        continue;
                    }
                    if (verdict instanceof RegistrationDecision.Refused r) {
                        throw r.exception();
                    }
                    RegistrationDecision.Proposed p = (RegistrationDecision.Proposed) verdict;
                    SchemaId id = p.existingId().orElseGet(() -> nextFree(view, subject, fresh));
                    commands = List.of(p.command(id));
                    answer = new StepAnswer(s.subject(), "registered", null, null);
                } else if (s.config() != null) {
                    commands = List.of(SettingsWrites.setConfigCommand(subject, s.config().compatibility(),
                            s.config().normalize(), s.config().fields(), List.of()));
                    answer = new StepAnswer(s.subject(), "config", null, null);
                } else if (s.deletesConfig()) {
                    commands = List.of(new DeleteConfig(subject));
                    answer = new StepAnswer(s.subject(), "config", null, null);
                } else {
                    commands = s.delete().permanent()
                            ? List.of(new DeleteSubject(subject, false), new DeleteSubject(subject, true))
                            : List.of(new DeleteSubject(subject, false));
                    answer = new StepAnswer(s.subject(), "deleted", null, null);
                }
            } catch (RegistryException e) {
                throw stepError(i, req, subject, e.error(), e.getMessage());
            }
            for (Command c : commands) {
                if (c instanceof DeleteSubject d && d.permanent() && view.subject(subject).isEmpty()) {
                    continue; // a subject with no version at all: nothing to remove for good
                }
                Applier.Trial trial = Applier.trial(view, at, timestamp, c);
                if (trial.outcome() instanceof Rejected r) {
                    throw stepError(i, req, subject, r.error(), r.message());
                }
                if (trial.outcome() instanceof Conflict conflict) {
                    throw stepError(i, req, subject, ErrorCode.OPERATION_TIMEOUT, conflict.reason());
                }
                overlay.apply(trial.changes());
                steps.add(ApplyChangeSet.Step.of(c));
                journaled.add(answers.size());
            }
            answers.add(answer);
        }
        if (steps.isEmpty() && expect.isEmpty()) {
            return new Built(null, answers, journaled);
        }
        if (steps.isEmpty()) { // nothing to write: the planned versions were checked above
            return new Built(null, answers, journaled);
        }
        ApplyChangeSet command = new ApplyChangeSet(changeId, req.message(), expect, steps);
        int bytes = JournalCodec.encode(Envelope.of(CommandId.of(changeId), "size", null, 0, command)).length;
        if (bytes > MAX_RECORD_BYTES) {
            throw RegistryException.of(ErrorCode.SCHEMA_TOO_LARGE, "the change set takes " + bytes
                    + " bytes as one journal record, the limit is " + MAX_RECORD_BYTES + "; split it");
        }
        return new Built(command, answers, journaled);
    }

    /** The registration decided over {@code view} as {@code POST /subjects/{s}/versions} decides it. */
    private RegistrationDecision.Verdict decide(RegistryView view, Subject subject, RegisterRequest req,
                                                boolean normalize) {
        SubjectSettings settings = SubjectSettings.of(view, subject, path.writable(view, subject));
        if (settings.mode() == Mode.IMPORT) {
            throw new RegistryException(ErrorCode.OPERATION_NOT_PERMITTED, "Subject " + subject
                    + " is in import mode: a change set does not import");
        }
        RegistrationDecision.admit(view, subject, settings, req).ifPresent(refused -> {
            throw refused.exception();
        });
        SchemaType type = WritePath.schemaType(req.schemaType());
        ParsedSchema<?> parsed = parsing.parse(view, subject.context(), type, req.schema(), req.referencesOrEmpty(),
                normalize || settings.normalize());
        // read through the caches, never into them: what the overlay holds is not in the registry yet
        return RegistrationDecision.decide(parsing.learning(view), view, subject, settings, parsed, req);
    }

    private static SchemaId nextFree(RegistryView view, Subject subject, Deque<Long> fresh) {
        while (!fresh.isEmpty()) {
            SchemaId id = SchemaId.of(fresh.poll());
            if (!view.holdsSchemaId(subject.context(), id)) {
                return id;
            }
        }
        throw RegistryException.retryLater(ErrorCode.OPERATION_TIMEOUT, 1,
                "the ids leased for this change set are held by imported schemas; retry");
    }

    private static RegistryException stepError(int i, ChangeSetRequest req, Subject subject, ErrorCode code,
                                               String message) {
        return new RegistryException(code, "step " + (i + 1) + " of " + req.steps().size()
                + (subject == null ? "" : " (subject " + subject + ")") + ": " + message);
    }
}
