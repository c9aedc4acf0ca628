package io.quire.node.service;

import io.quire.journal.apply.Applier;
import io.quire.journal.command.Command;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.exec.BoundedPool;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every write shares: the one submit-and-wait call with its outcome check, the hop to a
 * worker that turns a full queue into a failed future, and the edge checks every resource makes
 * (subject name, schema type, writable mode, the applier's own refusals).
 */
final class WritePath {

    private final JournalPort journal;
    private final Executor workers;
    private final ViewAccess access;

    WritePath(JournalPort journal, Executor workers, ViewAccess access) {
        this.journal = journal;
        this.workers = workers;
        this.access = access;
    }

    JournalPort journal() {
        return journal;
    }

    <O extends Outcome, T> CompletableFuture<Written<T>> submit(Command command, Principal principal, Class<O> type,
                                                                Function<O, T> value) {
        // Refused here, by the node's gates or by the applier's own verdict on this view (the same
        // pure function the applier runs): nothing doomed reaches the journal.
        RegistryView view = access.view();
        Rejected verdict = access.refusedWrite(view);
        if (verdict == null) {
            verdict = Applier.refusal(view, command);
        }
        if (verdict != null) {
            return CompletableFuture.failedFuture(new RegistryException(verdict.error(), verdict.message()));
        }
        return journal.submit(command, principal)
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

    /** Refused here, with the applier's own verdict, when it would refuse: nothing doomed reaches the journal. */
    static void refuse(Rejected verdict) {
        if (verdict != null) {
            throw new RegistryException(verdict.error(), verdict.message());
        }
    }

    /**
     * Work on a worker. A full worker queue is a failed future here (429), never an exception
     * thrown into whichever thread completed the stage before.
     */
    <T> CompletableFuture<T> work(Supplier<T> task) {
        try {
            return CompletableFuture.supplyAsync(task, workers);
        } catch (RegistryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * As {@link #work}, for a task that returns a future; on a worker already (the stage before
     * ran on one) it runs here, without another hop through the queue. A task that throws gives
     * the same failed future as on a worker.
     */
    <T> CompletableFuture<T> workCompose(Supplier<CompletableFuture<T>> task) {
        if (workers instanceof BoundedPool pool && pool.ownsCurrentThread()) {
            try {
                return task.get();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(new CompletionException(e));
            }
        }
        return work(task).thenCompose(f -> f);
    }

    /** Refuses a write the node or the subject's mode does not take; else the subject's effective mode. */
    Mode writable(RegistryView view, Subject subject) {
        refuse(access.refusedWrite(view)); // before an id is leased for it
        Mode mode = view.config().effectiveMode(subject);
        if (!mode.allowsWrites()) {
            throw RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED, "Subject " + subject + " is in read-only mode");
        }
        return mode;
    }

    static void validSubject(Subject subject) {
        if (!Subject.isValid(subject)) {
            throw RegistryException.of(ErrorCode.INVALID_SUBJECT, String.valueOf(subject));
        }
    }

    /** A subject a schema may be registered under: valid, and more than a context ({@code :.ctx:} holds settings). */
    static void validSchemaSubject(Subject subject) {
        validSubject(subject);
        if (subject.isContextOnly()) {
            throw RegistryException.of(ErrorCode.INVALID_SUBJECT, subject + " names a context, not a subject");
        }
    }

    static SchemaType schemaType(String text) {
        return SchemaType.parse(text).orElseThrow(() -> new RegistryException(ErrorCode.INVALID_SCHEMA,
                "Invalid schema type " + text));
    }
}
