package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.apply.Applier;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.RegisterVersions;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.VersionsRegistered;
import io.quire.journal.view.OverlayKv;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.Registered;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.ParsedSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A subject's waiting registrations decided together and journaled as one record (ADR 0008,
 * "groups"), so that a subject's versions cost one journal round trip per group, not per version.
 *
 * <p>The first registration is decided over the registry as it is, and that verdict is final, as
 * it would be one at a time. Each later one is decided over the registry as the ones before it will
 * leave it: their writes tried with the applier's own rules and laid over the view ({@link
 * OverlayKv}). It joins the group only if it comes out as a new version. Anything else (the schema
 * is already there through an earlier member, or it is refused) ends the group. That registration
 * and the rest wait for the next round, which decides them over the registry as the group left it.
 * Every verdict is therefore the one the registrations would get one after another, in arrival
 * order.
 *
 * <p>The applier registers the members in order and writes all or none. When it refuses the group
 * (another node moved the subject since), each member goes through the one-at-a-time path, in
 * order, where it is decided again.
 */
final class VersionGroups {

    /** A registration waiting in its subject's lane, with the future its client waits on. */
    record Pending(Subject subject, ParsedSchema<?> parsed, boolean normalized, RegisterRequest req, Principal principal,
                   long deadline, RegistrationDecision.Lookup lookup, CompletableFuture<Written<Registered>> result) {
    }

    /** A member: the waiting registration, what it was decided as, and the command for it. */
    private record Member(Pending pending, RegistrationDecision.Proposed proposal, RegisterSchema command) {
    }

    /** The parts of {@link Registrations} a round uses. */
    interface Path {
        /** The verdict over {@code view} for a registration decided first (its reads kept in the caches). */
        RegistrationDecision.Verdict decideFirst(RegistryView view, Pending p);

        /** Reads over a view that holds writes not applied yet: the caches are read, never filled. */
        LearningReads learning(RegistryView view);

        /** The verdict over such a view, read through {@code reads}. */
        RegistrationDecision.Verdict decideOver(LearningReads reads, RegistryView view, Pending p);

        /** A fresh id now, or null when the node must wait for a lease first. */
        SchemaId idNow(RegistryView view, Subject subject);

        /** The one-at-a-time path: decided, journaled and retried on its own. */
        CompletableFuture<Written<Registered>> alone(Pending p);

        /** A registration applied here: the caches learn it, and the answer its client gets. */
        Written<Registered> registered(Pending p, RegistrationDecision.Proposed proposal, SchemaRegistered r,
                                       Offset at);

        /** A final verdict given before anything is journaled (a version the subject has, or a refusal). */
        void settle(Pending p, RegistrationDecision.Verdict verdict);
    }

    private final ViewAccess access;
    private final WritePath write;
    private final Path path;

    VersionGroups(ViewAccess access, WritePath write, Path path) {
        this.access = access;
        this.write = write;
        this.path = path;
    }

    /** One round over the subject's waiting registrations: completes with how many it settled. */
    CompletableFuture<Integer> round(Subject subject, List<Pending> waiting) {
        if (waiting.size() == 1) {
            return alone(waiting.get(0)).thenApply(v -> 1);
        }
        return write.workCompose(() -> {
            List<Member> members = new ArrayList<>();
            int taken = build(subject, waiting, members);
            if (members.isEmpty()) {
                return CompletableFuture.completedFuture(taken);
            }
            if (members.size() == 1) {
                return alone(members.get(0).pending()).thenApply(v -> taken);
            }
            List<RegisterVersions.Member> journaled = members.stream()
                    .map(m -> new RegisterVersions.Member(m.pending().principal(), m.command())).toList();
            return write.journal().submit(new RegisterVersions(subject, journaled), members.get(0).pending().principal())
                    .thenCompose(applied -> {
                        Outcome o = applied.outcome();
                        if (!(o instanceof VersionsRegistered done)) {
                            return oneByOne(members, 0).thenApply(v -> taken); // each decided again on its own
                        }
                        for (int i = 0; i < members.size(); i++) {
                            Member m = members.get(i);
                            m.pending().result().complete(path.registered(m.pending(), m.proposal(),
                                    done.versions().get(i), applied.offset()));
                        }
                        return CompletableFuture.completedFuture(taken);
                    });
        }).exceptionally(err -> { // whatever is left unsettled fails with the round's error
            for (Pending p : waiting) {
                p.result().completeExceptionally(err);
            }
            return waiting.size();
        });
    }

    /**
     * Decides from the front of {@code waiting} into {@code members}; returns how many it took
     * (settled at once, or members). Runs on a worker.
     */
    private int build(Subject subject, List<Pending> waiting, List<Member> members) {
        RegistryView now = access.view().memoized();
        OverlayKv overlay = new OverlayKv(now.kv());
        RegistryView over = new RegistryView(overlay);
        // one set of reads for the later members: each finds the members before it parsed already
        LearningReads reads = path.learning(over);
        long timestamp = System.currentTimeMillis();
        int taken = 0;
        for (Pending p : waiting) {
            boolean first = members.isEmpty();
            if (System.nanoTime() > p.deadline()) {
                if (!first) {
                    break; // the next round refuses it, after the members before it are settled
                }
                path.settle(p, new RegistrationDecision.Refused(ErrorCode.OPERATION_TIMEOUT, "subject '" + subject
                        + "' has too many writes in flight on this node to take this one in time; retry"));
                taken++;
                continue;
            }
            RegistrationDecision.Verdict verdict;
            try {
                verdict = first ? path.decideFirst(now, p) : path.decideOver(reads, over, p);
            } catch (RegistryException e) {
                if (!first) {
                    break;
                }
                p.result().completeExceptionally(e);
                taken++;
                continue;
            }
            if (!(verdict instanceof RegistrationDecision.Proposed proposal)) {
                if (!first) {
                    break;
                }
                path.settle(p, verdict);
                taken++;
                continue;
            }
            SchemaId id = proposal.existingId().orElseGet(() -> path.idNow(over, subject));
            if (id == null) {
                if (first) { // the next lease comes first: this one goes alone, and waits for it there
                    members.add(new Member(p, proposal, null));
                    taken++;
                }
                break;
            }
            // a later member was decided over the overlay: its revision is already THIS_RECORD
            RegisterSchema command = proposal.command(id);
            Applier.Trial trial = Applier.trial(over, Offset.THIS_RECORD, timestamp, command);
            if (!(trial.outcome() instanceof SchemaRegistered r) || !r.created()) {
                if (first) { // the applier will say what it is, one at a time
                    members.add(new Member(p, proposal, null));
                    taken++;
                }
                break;
            }
            overlay.apply(trial.changes());
            // the next member's check reads this one as its latest: as registered() tells the caches after a write
            LearningReads.IdKey key = new LearningReads.IdKey(subject.context(), id);
            reads.parsed.putIfAbsent(key, p.parsed());
            if (proposal.contract().isNone()) { // and inherits no contract from it, as registeredWithoutContract tells the caches
                reads.contracts.putIfAbsent(key, new LearningReads.ReadContract(DataContract.NONE, 0));
            }
            members.add(new Member(p, proposal, command));
            taken++;
        }
        return taken;
    }

    private CompletableFuture<Void> oneByOne(List<Member> members, int from) {
        if (from == members.size()) {
            return CompletableFuture.completedFuture(null);
        }
        return alone(members.get(from).pending()).thenCompose(v -> oneByOne(members, from + 1));
    }

    /** The one-at-a-time path for {@code p}; completes (never fails) once its client has its answer. */
    private CompletableFuture<Void> alone(Pending p) {
        return path.alone(p).handle((written, err) -> {
            if (err != null) {
                p.result().completeExceptionally(err instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : err);
            } else {
                p.result().complete(written);
            }
            return null;
        });
    }
}
