package io.quire.node.service;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.node.write.Applied;
import io.quire.node.write.JournalPort;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A journal in memory behind the services' port: each command is appended and applied at once
 * by the real applier to an in-memory view, as a node applies its own command before it answers.
 */
public final class InMemoryJournal implements JournalPort {

    private final Applier applier = new Applier();
    private final InMemoryKv kv = new InMemoryKv();
    private final RegistryView view = new RegistryView(kv);
    private final List<Envelope> records = new ArrayList<>();

    /** A command sent while the journal is held: applied and answered by {@link #release}. */
    private record Held(Command command, Principal principal, CompletableFuture<Applied> answer) {
    }

    private boolean held;
    private final List<Held> waiting = new ArrayList<>();

    /** From now on commands wait until {@link #release}, as they wait for a real journal's round trip. */
    public synchronized void hold() {
        held = true;
    }

    /** Appends and applies, in order, the commands sent while held, then answers each; returns how many. */
    public int release() {
        List<Held> now;
        List<Applied> applied = new ArrayList<>();
        synchronized (this) {
            now = new ArrayList<>(waiting);
            waiting.clear();
            for (Held h : now) {
                applied.add(append(h.command(), h.principal()));
            }
        }
        for (int i = 0; i < now.size(); i++) { // answered outside the lock: an answer may send the next command
            now.get(i).answer().complete(applied.get(i));
        }
        return now.size();
    }

    /** The types of the commands appended so far, in order. */
    public synchronized List<String> types() {
        return records.stream().map(e -> e.command().type().wireName).toList();
    }

    @Override
    public synchronized CompletableFuture<Applied> submit(Command command, Principal principal) {
        if (held) {
            CompletableFuture<Applied> answer = new CompletableFuture<>();
            waiting.add(new Held(command, principal, answer));
            return answer;
        }
        return CompletableFuture.completedFuture(append(command, principal));
    }

    private Applied append(Command command, Principal principal) {
        long offset = records.size();
        Envelope e = Envelope.of(CommandId.of("cmd-" + offset), "node-test", principal, 1_700_000_000_000L + offset, command);
        records.add(e);
        ApplyResult r = applier.apply(view, Offset.of(offset), e);
        kv.apply(r.changes());
        return new Applied(Offset.of(offset), r.outcome());
    }

    RegistryView view() {
        return view;
    }

    /** Commands appended so far: what a refusal at the edge must leave unchanged. */
    public synchronized int size() {
        return records.size();
    }
}
