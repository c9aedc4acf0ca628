package io.quire.journal.apply;

import io.quire.journal.command.ApplyChangeSet;
import io.quire.journal.command.Command;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Version;
import io.quire.journal.outcome.ChangeSetApplied;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.Changes;
import io.quire.journal.view.OverlayKv;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.VersionRecord;
import io.quire.journal.view.ViewWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A change set: its expectations checked, then its steps decided one after another, each by the
 * rules of its own command over the view as the steps before it left it ({@link OverlayKv}). All
 * of them are written, or (at the first refusal) none. The work is the sum of its steps'.
 */
final class ChangeSetRules {

    /** Steps one set may hold; the edge refuses more before journaling. */
    static final int MAX_STEPS = 10_000;

    private ChangeSetRules() {
    }

    static Outcome apply(RegistryView view, ViewWriter out, Offset offset, Envelope e, ApplyChangeSet set) {
        if (set.changeId() == null || set.changeId().isBlank()) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a change set needs an id");
        }
        if (set.steps().isEmpty() || set.steps().size() > MAX_STEPS) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "change set " + set.changeId() + " has " + set.steps().size()
                    + " steps; it needs 1 to " + MAX_STEPS);
        }
        Rejected unexpected = expectations(view, set.changeId(), set.expect());
        if (unexpected != null) {
            return unexpected;
        }
        StepOverlay steps = new StepOverlay(view, out);
        List<ChangeSetApplied.StepOutcome> results = new ArrayList<>(set.steps().size());
        for (int i = 0; i < set.steps().size(); i++) {
            Command step = set.steps().get(i).command();
            if (step == null) {
                return Rejected.of(ErrorCode.UNPROCESSABLE, where(set, i, null) + "a step holds exactly one change");
            }
            ViewWriter stepOut = new ViewWriter(new Changes());
            Outcome o = Applier.decide(steps.view(), stepOut, offset, new Envelope(e.version(), e.commandId(), e.nodeId(),
                    e.principal(), e.timestamp(), step, null, e.epoch()));
            if (o instanceof Rejected r) {
                return new Rejected(r.error(), where(set, i, step) + r.message());
            }
            if (o instanceof Conflict c) {
                return new Conflict(where(set, i, step) + c.reason());
            }
            steps.keep(stepOut, AuditEntry.ofStep(offset, e, set, step, o));
            results.add(ChangeSetApplied.StepOutcome.of(o));
        }
        steps.auditSteps();
        return new ChangeSetApplied(set.changeId(), results);
    }

    /**
     * The refusal of a set's expectations, or null when they hold: a subject named twice (422), or
     * 40920 naming every subject whose latest live version is not the one planned.
     */
    static Rejected expectations(RegistryView view, String changeId, List<ApplyChangeSet.Expected> expect) {
        List<String> moved = new ArrayList<>();
        Set<String> expected = new HashSet<>();
        for (ApplyChangeSet.Expected x : expect) {
            if (x.subject() == null || !expected.add(x.subject().name())) {
                return Rejected.of(ErrorCode.UNPROCESSABLE, "change set " + changeId
                        + ": each expectation names one subject, once");
            }
            Version now = view.latestLive(x.subject()).map(VersionRecord::version).orElse(null);
            if (!Objects.equals(now, x.latest())) {
                moved.add(x.subject() + " (planned at " + (x.latest() == null ? "no version" : "version " + x.latest())
                        + ", now " + (now == null ? "no version" : "version " + now) + ")");
            }
        }
        return moved.isEmpty() ? null : Rejected.of(ErrorCode.CHANGE_SET_MOVED, String.join(", ", moved));
    }

    /** Where in the set a refusal came: "change set c1, step 15 of 20 (RegisterSchema, subject orders-value): ". */
    private static String where(ApplyChangeSet set, int i, Command step) {
        return "change set " + set.changeId() + ", step " + (i + 1) + " of " + set.steps().size()
                + (step == null ? "" : " (" + step.type().wireName + (step.subject() == null ? "" : ", subject "
                + step.subject()) + ")") + ": ";
    }
}
