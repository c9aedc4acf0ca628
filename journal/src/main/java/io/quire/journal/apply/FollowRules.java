package io.quire.journal.apply;

import io.quire.journal.command.CommandType;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.ImportSchemas;
import io.quire.journal.command.SetFollow;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.outcome.Conflict;
import io.quire.journal.outcome.FollowSet;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.outcome.VersionsRegistered;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.Changes;
import io.quire.journal.view.FollowState;
import io.quire.journal.view.KvReader;
import io.quire.journal.view.Keys;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Following another registry's log. A record copied from the source carries the source's name and
 * its offset there: it is applied when the registry follows that source and the offset is past
 * the last one dealt with, once, whichever node sent it (every node may tail the source; the
 * journal's order decides). Its command is decided as an import, whatever mode the copied log set:
 * the source's modes are kept, and bind once the registry stops following. While it follows, every
 * other write is refused with a message naming the source.
 */
final class FollowRules {

    private FollowRules() {
    }

    static Outcome setFollow(RegistryView view, ViewWriter out, SetFollow c) {
        if (c.source() == null || c.source().isBlank()) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a followed registry needs a name");
        }
        Optional<FollowState> now = view.follow();
        if (c.following()) {
            if (now.isPresent() && now.get().following() && !now.get().source().equals(c.source())) {
                return Rules.notPermitted("this registry already follows " + now.get().source());
            }
            if (now.isPresent() && !now.get().following() && now.get().source().equals(c.source())) {
                // a skip marker racing the cut-over included: it must not start following again
                return Rules.notPermitted("this registry stopped following " + c.source() + " (cut over); it does not"
                        + " follow it again");
            }
            FollowState same = now.filter(s -> s.source().equals(c.source())).orElse(null);
            long last = same == null ? -1 : same.lastOffset();
            FollowState next = c.skipTo() > last ? new FollowState(c.source(), true, c.skipTo(), FollowState.WHOLE_RECORD)
                    : new FollowState(c.source(), true, last, same == null ? FollowState.WHOLE_RECORD : same.lastPart());
            out.follow(next);
            return new FollowSet(c.source(), true, next.lastOffset());
        }
        if (now.isEmpty() || !now.get().following() || !now.get().source().equals(c.source())) {
            return Rules.notPermitted("this registry does not follow " + c.source());
        }
        out.follow(new FollowState(c.source(), false, now.get().lastOffset(), now.get().lastPart()));
        return new FollowSet(c.source(), false, now.get().lastOffset());
    }

    /**
     * A run of copied schema versions ({@link ImportSchemas}), over {@code view} as a copied record
     * sees it: each imported by the rules of a single import over the view as those before it leave
     * it ({@link StepOverlay}), all written or none. The run's source offsets rise, and the last is the
     * envelope's (the position the follow state moves to).
     */
    static Outcome importAll(RegistryView view, ViewWriter out, Offset offset, Envelope e, ImportSchemas run) {
        Envelope.Source src = e.source();
        int n = run.schemas().size();
        if (src == null) {
            return Rules.notPermitted("copied schemas come from a followed registry's log; this record names none");
        }
        if (n < 1 || n > ImportSchemas.MAX_SCHEMAS) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a run of copied schemas has 1 to " + ImportSchemas.MAX_SCHEMAS
                    + " imports, not " + n);
        }
        long previous = Long.MIN_VALUE;
        for (ImportSchemas.Copied c : run.schemas()) {
            if (c == null || c.schema() == null || c.sourceOffset() <= previous) {
                return Rejected.of(ErrorCode.UNPROCESSABLE, "a run of copied schemas holds imports in rising source"
                        + " order, each with its schema");
            }
            previous = c.sourceOffset();
        }
        if (previous != src.offset() || src.part() != 0) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a run of copied schemas ends at its record's source position "
                    + src.offset() + "/" + src.part() + ", not " + previous);
        }
        StepOverlay steps = new StepOverlay(view, out);
        List<SchemaRegistered> imported = new ArrayList<>(n);
        for (ImportSchemas.Copied c : run.schemas()) {
            ViewWriter one = new ViewWriter(new Changes());
            Outcome o = SchemaRules.importSchema(steps.view(), one, offset, e.timestamp(), c.schema());
            if (o instanceof Rejected r) {
                return new Rejected(r.error(), "source record " + c.sourceOffset() + " of " + src.name() + ": "
                        + r.message());
            }
            if (!(o instanceof SchemaRegistered done)) {
                return new Conflict("source record " + c.sourceOffset() + " of " + src.name() + " came to " + o.type());
            }
            steps.keep(one, new AuditEntry(offset, e.timestamp(), e.principal(), e.nodeId(), e.commandId(),
                    c.schema().type().wireName, c.schema().subject(), o.type().wireName, null));
            imported.add(done);
        }
        steps.auditSteps();
        return new VersionsRegistered(imported);
    }

    /** Why a command may not be applied given what the registry follows; null when it may. */
    static Rejected gate(RegistryView view, Envelope envelope) {
        Optional<FollowState> follow = view.follow();
        Envelope.Source src = envelope.source();
        if (src != null) {
            if (follow.isEmpty() || !follow.get().following() || !follow.get().source().equals(src.name())) {
                return Rules.notPermitted("this registry does not follow " + src.name());
            }
            FollowState f = follow.get();
            if (!src.isAfter(f.lastOffset(), f.lastPart())) {
                return Rules.notPermitted("record " + src.offset() + " of " + src.name() + " was applied already");
            }
            if (src.chained() && (src.prevOffset() != f.lastOffset() || src.prevPart() != f.lastPart())) {
                return Rules.notPermitted("out of order: record " + src.offset() + " of " + src.name()
                        + " follows " + src.prevOffset() + "/" + src.prevPart() + ", the registry is at "
                        + f.lastOffset() + "/" + f.lastPart());
            }
            return null;
        }
        CommandType t = envelope.command().type();
        if (follow.isPresent() && follow.get().following() && t != CommandType.LEASE_ID_BLOCK
                && t != CommandType.SET_FOLLOW) {
            return readOnly(follow.get());
        }
        return null;
    }

    static Rejected readOnly(FollowState f) {
        return Rules.notPermitted("This registry follows " + f.source() + " and is read-only until the cut-over"
                + " (java -jar quire.jar cutover)");
    }

    /** The view as a copied record sees it: every subject in IMPORT mode, the stored modes untouched. */
    static RegistryView asImport(RegistryView view) {
        KvReader kv = view.kv();
        return new RegistryView(new KvReader() {
            @Override
            public byte[] get(byte[] key) {
                if (Arrays.equals(key, Keys.GLOBAL_MODE)) {
                    return IMPORT;
                }
                if (key.length > 0 && key[0] == 'D') {
                    return null;
                }
                return kv.get(key);
            }

            @Override
            public void scan(byte[] prefix, KvVisitor visitor) {
                kv.scan(prefix, visitor);
            }

            @Override
            public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
                kv.scanFrom(prefix, start, visitor);
            }
        });
    }

    private static final byte[] IMPORT = "IMPORT".getBytes(StandardCharsets.US_ASCII);
}
