package io.quire.journal.apply;

import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.OverlayKv;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps of one journal record decided one after another (a change set's steps, a group's
 * versions, a follower's run of imports): each over the view as the steps before it leave it
 * ({@link OverlayKv}), its writes kept into the record's, and its audit entry kept beside the
 * record's own. Nothing reaches the record's writes but the steps kept, so a record refused at a
 * later step is written as refused by its caller.
 */
final class StepOverlay {

    private final OverlayKv overlay;
    private final RegistryView view;
    private final ViewWriter out;
    private final List<AuditEntry> audit = new ArrayList<>();

    StepOverlay(RegistryView base, ViewWriter out) {
        this.overlay = new OverlayKv(base.kv());
        this.view = new RegistryView(overlay);
        this.out = out;
    }

    /** The view as the steps kept so far leave it. */
    RegistryView view() {
        return view;
    }

    /** Keeps a step decided over {@link #view}: its writes, seen by the steps after it, and its audit entry. */
    void keep(ViewWriter step, AuditEntry entry) {
        overlay.apply(step.changes());
        out.changes().putAll(step.changes());
        audit.add(entry);
    }

    /** Writes the kept steps' audit entries, in order, once every step is kept. */
    void auditSteps() {
        for (int i = 0; i < audit.size(); i++) {
            out.auditStep(audit.get(i), i);
        }
    }
}
