package io.quire.journal.apply;

import io.quire.journal.command.Envelope;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.command.RegisterVersions;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.VersionsRegistered;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.Changes;
import io.quire.journal.view.OverlayKv;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A subject's new versions decided together on one node ({@link RegisterVersions}): each member
 * registered by the rules of a single registration over the view as the members before it leave
 * it ({@link OverlayKv}), all of them written or none. A member that does not come out as a new
 * version (the subject moved since the node decided, its level changed, a reference is gone, its
 * content is there already) makes the whole record a conflict: the node then decides every member
 * again on its own, so each gets the verdict it would have had one at a time.
 */
final class VersionRules {

    private VersionRules() {
    }

    static Outcome register(RegistryView view, ViewWriter out, Offset offset, Envelope e, RegisterVersions group) {
        int n = group.members().size();
        if (n < 2 || n > RegisterVersions.MAX_MEMBERS) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a group of versions has 2 to " + RegisterVersions.MAX_MEMBERS
                    + " members, not " + n);
        }
        StepOverlay steps = new StepOverlay(view, out);
        List<SchemaRegistered> registered = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RegisterVersions.Member m = group.members().get(i);
            RegisterSchema r = m == null ? null : m.register();
            if (r == null || group.subject() == null || !group.subject().equals(r.subject())) {
                return Rejected.of(ErrorCode.UNPROCESSABLE, "member " + (i + 1) + " of " + n
                        + ": each member registers under the group's subject " + group.subject());
            }
            ViewWriter memberOut = new ViewWriter(new Changes());
            Outcome o = SchemaRules.register(steps.view(), memberOut, offset, e.timestamp(), r);
            if (!(o instanceof SchemaRegistered done) || !done.created()) {
                return new Conflict("member " + (i + 1) + " of " + n + " of subject '" + group.subject()
                        + "' is not the new version it was decided as (" + why(o) + ")");
            }
            steps.keep(memberOut, AuditEntry.ofMember(offset, e, m, o));
            registered.add(done);
        }
        steps.auditSteps();
        return new VersionsRegistered(registered);
    }

    private static String why(Outcome o) {
        if (o instanceof Conflict c) {
            return c.reason();
        }
        if (o instanceof Rejected r) {
            return r.error().code + " " + r.message();
        }
        return "its content is version " + ((SchemaRegistered) o).version() + " already";
    }
}
