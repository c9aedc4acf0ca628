package io.quire.node.write;

import io.quire.journal.command.CommandId;
import java.util.concurrent.CompletableFuture;

/**
 * Where a node hears that a command it sent was applied: the one correlation map of every write.
 * The view's apply path implements it; the write path only waits on it.
 */
public interface Outcomes {

    /** The future of the command with this id, completed when the node applies it. */
    CompletableFuture<Applied> expect(CommandId commandId);

    /** Stop waiting for this command (it was never sent, or its wait ended). */
    void forget(CommandId commandId);
}
