package io.quire.journal;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.command.Command;
import io.quire.journal.command.CommandId;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import java.util.ArrayList;
import java.util.List;

/** A journal applied in memory, one record at a time: the test bed of the applier. */
public final class ReplayedJournal {

    private final Applier applier = new Applier();
    private final InMemoryKv kv = new InMemoryKv();
    private final RegistryView view = new RegistryView(kv);
    private final List<Envelope> records = new ArrayList<>();

    public Outcome append(Command command) {
        Envelope e = Envelope.of(CommandId.of("cmd-" + records.size()), "node-test", Principal.of("tester"), 1_700_000_000_000L + records.size(),
                command);
        return append(e);
    }

    public Outcome append(Envelope e) {
        Offset offset = Offset.of(records.size());
        records.add(e);
        ApplyResult r = applier.apply(view, offset, e);
        kv.apply(r.changes());
        return r.outcome();
    }

    /** Applies a record again at an offset already applied, as a replay after a crash does. */
    public ApplyResult reapply(long offset) {
        ApplyResult r = applier.apply(view, Offset.of(offset), records.get((int) offset));
        kv.apply(r.changes());
        return r;
    }

    public RegistryView view() {
        return view;
    }

    public InMemoryKv kv() {
        return kv;
    }

    public List<Envelope> records() {
        return records;
    }
}
