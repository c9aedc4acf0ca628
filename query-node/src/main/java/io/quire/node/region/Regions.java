package io.quire.node.region;

import io.quire.journal.command.Promote;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.Promoted;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegionState;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.AdminAnswers.Promotion;
import io.quire.node.api.AdminAnswers.RegionStatus;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.quire.node.service.ViewAccess;
import io.quire.node.write.CommandSubmitter;
import io.quire.node.write.JournalPort;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * A node's region: {@code GET /admin/region} (primary, epoch, whether this region writes, how far
 * behind the newest record it holds) and {@code POST /admin/promote}, which {@code quire.jar
 * promote} calls to make this region the primary.
 */
public final class Regions {

    /** Ids skipped above the highest granted block by default: room for blocks the lost primary granted unseen. */
    public static final long DEFAULT_ID_GAP = 100_000;

    private final ViewAccess access;
    private final JournalPort journal;
    private final QuireConfig.Regions config;
    private final RegionGate gate;
    private final LongSupplier applied;

    private Regions(ViewAccess access, JournalPort journal, QuireConfig.Regions config, LongSupplier applied) {
        this.access = access;
        this.journal = journal;
        this.config = config;
        this.gate = new RegionGate(config.region(), config.journalFollow());
        this.applied = applied;
    }

    /**
     * Wires a node's region: client writes are refused unless this region is the primary, and every
     * command the node journals carries the view's epoch.
     */
    public static Regions install(ViewAccess access, CommandSubmitter submitter, QuireConfig.Regions config,
                                  LongSupplier applied) {
        Regions r = new Regions(access, submitter, config, applied);
        access.gateWrites(r.gate);
        submitter.stampEpoch(() -> access.isOpen() ? RegionState.of(access.view()).epoch() : 0);
        return r;
    }

    public RegionStatus status(long journalEndOffset, long now) {
        RegistryView view = access.view();
        RegionState s = RegionState.of(view);
        long at = applied.getAsLong();
        long behind = Math.max(0, journalEndOffset - 1 - at);
        long[] newest = {0};
        view.audit().audit(Offset.of(Math.max(0, at)), e -> {
            newest[0] = e.timestamp();
            return false;
        });
        return new RegionStatus(config.region(), s.primary() != null ? s.primary() : config.following()
                ? config.journalFollow() : config.region(), s.epoch(), gate.primary(view), config.journalFollow(), at,
                behind, newest[0], behind == 0 || newest[0] == 0 ? 0.0 : Math.max(0, now - newest[0]) / 1000.0);
    }

    /**
     * Makes this region the primary: journals a promotion to the next epoch, ids continued above
     * every block granted so far plus {@code idGap}. Refused where this region is the primary already.
     */
    public CompletableFuture<Promotion> promote(long idGap) {
        RegistryView view = access.view();
        if (gate.primary(view)) {
            return CompletableFuture.failedFuture(RegistryException.of(ErrorCode.OPERATION_NOT_PERMITTED,
                    "region " + config.region() + " is the primary already"));
        }
        if (idGap < 0) {
            return CompletableFuture.failedFuture(RegistryException.of(ErrorCode.UNPROCESSABLE, "idGap must be ≥ 0"));
        }
        int epoch = RegionState.of(view).epoch() + 1;
        long floor = view.idWatermark().value() + idGap;
        long started = System.nanoTime();
        return journal.submit(new Promote(config.region(), epoch, floor), Principal.of("promote")).thenApply(a -> {
            if (a.outcome() instanceof Rejected r) {
                throw new RegistryException(r.error(), r.message());
            }
            Promoted p = (Promoted) a.outcome();
            return new Promotion(p.region(), p.epoch(), p.nextId(), a.offset().value(),
                    (System.nanoTime() - started) / 1_000_000);
        });
    }
}
