package io.quire.ids;

import java.util.concurrent.CompletionStage;

/**
 * Leases a fresh block of ids. The query node implements it by appending a lease command to the
 * journal and waiting for the applier's grant.
 */
@FunctionalInterface
public interface BlockLeaser {
    CompletionStage<IdBlock> lease(int size);
}
