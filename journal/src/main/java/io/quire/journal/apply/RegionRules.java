package io.quire.journal.apply;

import io.quire.ids.BlockGrants;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.Promote;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Exporter;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Promoted;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.ExporterReads;
import io.quire.journal.view.RegionState;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;

/**
 * Regions: a journal mirrored into another Kafka cluster is applied there as it is here. A
 * promotion makes a region the primary with a new epoch; a record stamped with an older epoch
 * (written by the region that was primary before, and mirrored late) is refused, which fences it.
 */
final class RegionRules {

    private RegionRules() {
    }

    static Outcome promote(RegistryView view, ViewWriter out, long timestamp, Promote c) {
        RegionState now = RegionState.of(view);
        if (c.region() == null || c.region().isBlank()) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a promoted region needs a name");
        }
        if (c.epoch() != now.epoch() + 1) {
            return Rules.notPermitted("promotion to epoch " + c.epoch() + " but the journal is at epoch " + now.epoch()
                    + (now.primary() == null ? "" : " (primary " + now.primary() + ")"));
        }
        long next = Math.max(view.idWatermark().value(), c.idFloor());
        if (next > BlockGrants.MAX_ID) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "id floor " + c.idFloor() + " is past the id space");
        }
        out.region(new RegionState(c.region(), c.epoch()));
        out.idWatermark(SchemaId.of(next));
        // An exporter's offset is a journal offset of the region that recorded it, and a mirror keeps
        // records, not offsets: each starts again from the start, which copies nothing twice (it
        // compares with the destination), and its lease is free for this region's nodes.
        for (Exporter e : ExporterReads.exporters(view)) {
            out.exporter(e.withRun(e.paused(), Offset.NONE, null, 0, e.trace(), e.generation(), timestamp));
        }
        return new Promoted(c.region(), c.epoch(), next);
    }

    /** The refusal of a record stamped before the journal's current epoch; null when it is current. */
    static Rejected fence(RegistryView view, Envelope e) {
        int epoch = RegionState.of(view).epoch();
        if (e.epoch() < epoch) {
            return Rules.notPermitted("fenced: written at epoch " + e.epoch() + " by node " + e.nodeId()
                    + ", but region " + RegionState.of(view).primary() + " is the primary since epoch " + epoch);
        }
        return null;
    }
}
