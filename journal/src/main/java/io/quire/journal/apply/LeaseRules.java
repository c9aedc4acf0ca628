package io.quire.journal.apply;

import io.quire.ids.BlockGrants;
import io.quire.ids.IdBlock;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaId;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;

/** Id blocks granted in journal order (the grant rule lives in the id allocator). */
final class LeaseRules {

    private LeaseRules() {
    }

    static Outcome lease(RegistryView view, ViewWriter out, LeaseIdBlock c) {
        if (!BlockGrants.validSize(c.size())) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "invalid id block size " + c.size());
        }
        IdBlock block = BlockGrants.grant(view.idWatermark().value(), c.size());
        if (block == null) {
            return Rejected.of(ErrorCode.STORE_ERROR, "the id space is exhausted");
        }
        // a build broken on purpose (TestBreak) grants every id twice; never otherwise
        out.idWatermark(SchemaId.of(TestBreak.REUSE_IDS ? block.start() + Math.max(1, block.size() / 2) : block.end()));
        return new BlockGranted(block.start(), block.size());
    }
}
