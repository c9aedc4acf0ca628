package io.quire.node;

import io.quire.ids.BlockLeaser;
import io.quire.ids.IdBlock;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.BlockGranted;
import io.quire.journal.outcome.Rejected;
import io.quire.node.error.RegistryException;
import io.quire.node.metrics.QuireMetrics;
import io.quire.node.write.JournalPort;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The id allocator's leaser on a node: a {@link LeaseIdBlock} through the journal, the grant from its outcome. */
final class NodeLeaser implements BlockLeaser {

    /** Who a node's id leases are written for. */
    private static final Principal PRINCIPAL = Principal.of("quire-node");

    private static final Logger LOG = LoggerFactory.getLogger(NodeLeaser.class);

    private final JournalPort journal;
    private final String nodeId;
    private final QuireMetrics metrics;

    NodeLeaser(JournalPort journal, String nodeId, QuireMetrics metrics) {
        this.journal = journal;
        this.nodeId = nodeId;
        this.metrics = metrics;
    }

    @Override
    public CompletableFuture<IdBlock> lease(int size) {
        long started = System.nanoTime();
        return journal.submit(new LeaseIdBlock(nodeId, UUID.randomUUID().toString(), size), PRINCIPAL)
                .thenApply(applied -> {
                    if (applied.outcome() instanceof BlockGranted g) {
                        long nanos = System.nanoTime() - started;
                        metrics.idLease(nanos);
                        LOG.info("leased ids [{}, {}) in {} µs", g.start(), g.start() + g.size(), nanos / 1_000);
                        return new IdBlock(g.start(), g.size());
                    }
                    String why = applied.outcome() instanceof Rejected r ? r.message() : applied.outcome().toString();
                    throw RegistryException.of(ErrorCode.STORE_ERROR, "id lease refused: " + why);
                });
    }
}
