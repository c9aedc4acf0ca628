package io.quire.node.service;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quire.client.RegisterRequest;
import io.quire.ids.BlockAllocator;
import io.quire.ids.IdBlock;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.BlockGranted;
import io.quire.node.config.QuireConfig;
import io.quire.node.error.RegistryException;
import io.quire.node.metrics.QuireMetrics;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The registry's services over an in-memory journal, work done on the caller's thread. */
public final class RegistryHarness {

    public final InMemoryJournal journal = new InMemoryJournal();
    public final ViewAccess access = new ViewAccess();
    public final Registry registry;
    public final SchemaParsing parsing = new SchemaParsing(new QuireConfig.Limits(1 << 20, 64, 16, 10_000), false);

    public RegistryHarness() {
        access.open(journal.view());
        BlockAllocator ids = new BlockAllocator(size -> journal.submit(new LeaseIdBlock("node-test", "lease", size),
                Principal.of("quire-node")).thenApply(a -> {
                    BlockGranted g = (BlockGranted) a.outcome();
                    return new IdBlock(g.start(), g.size());
                }), 100);
        registry = Registry.create(access, parsing,
                journal, ids, Runnable::run, new QuireMetrics(), 5_000);
    }

    static RegisterRequest avro(String schema) {
        return new RegisterRequest(schema, null, List.of(), null, null);
    }

    static RegisterRequest imported(String schema, long id, Integer version) {
        return new RegisterRequest(schema, null, List.of(), (int) id, version);
    }

    public long register(String subject, String schema) {
        return get(() -> registry.registrations().register(Subject.of(subject), avro(schema), false, Principal.of("tester"))).value().id().value();
    }

    static <T> T get(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get().get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Confluent code a call is refused with, whether it throws at once or fails its future. */
    static int refusal(Supplier<? extends CompletableFuture<?>> call) {
        RegistryException e = assertThrows(RegistryException.class, () -> {
            try {
                call.get().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException ex) {
                Throwable c = ex.getCause() instanceof CompletionException ce ? ce.getCause() : ex.getCause();
                throw c;
            }
        });
        return e.error().code;
    }
}
