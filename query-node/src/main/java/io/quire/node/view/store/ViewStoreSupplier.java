package io.quire.node.view.store;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/** Supplies the view store to {@code Stores.keyValueStoreBuilder}: part of the store's adapter. */
public final class ViewStoreSupplier {

    private ViewStoreSupplier() {
    }

    /** A supplier that tells {@code created} about each store it makes. */
    public static KeyValueBytesStoreSupplier of(String name, GroupCommit group, Tuning tuning,
                                                Consumer<ViewStore> created) {
        return of(name, group, tuning, created, null);
    }

    /**
     * As above; the first store supplied is {@code opened} when given (a store the catch-up opened
     * and applied into: Streams goes on with it, block cache and all, instead of reopening it).
     */
    public static KeyValueBytesStoreSupplier of(String name, GroupCommit group, Tuning tuning,
                                                Consumer<ViewStore> created, ViewStore opened) {
        AtomicReference<ViewStore> first = new AtomicReference<>(opened);
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                ViewStore given = first.getAndSet(null);
                ViewStore store = given != null ? given : new ViewStore(name, group, tuning);
                store.groupCommit(group);
                created.accept(store);
                return store;
            }

            @Override
            public String metricsScope() {
                return "quire-view";
            }
        };
    }
}
