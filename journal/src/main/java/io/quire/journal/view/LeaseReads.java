package io.quire.journal.view;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.TaskLease;
import java.io.IOException;
import java.util.Optional;

/** The leases on tasks one node runs at a time ({@code T name}). */
public final class LeaseReads {

    private LeaseReads() {
    }

    public static Optional<TaskLease> lease(RegistryView view, String name) {
        byte[] json = view.kv().get(Keys.lease(name));
        if (json == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(json, TaskLease.class));
        } catch (IOException e) {
            throw new CorruptRecordException("cannot decode the lease of " + name, e);
        }
    }
}
