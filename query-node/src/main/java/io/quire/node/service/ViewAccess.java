package io.quire.node.service;

import io.quire.node.error.RegistryException;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.view.RegistryView;

/** The node's view once Kafka Streams serves it; before that, every read is refused as not ready. */
public final class ViewAccess {

    private volatile RegistryView view;

    public void open(RegistryView view) {
        this.view = view;
    }

    public void close() {
        this.view = null;
    }

    public boolean isOpen() {
        return view != null;
    }

    public RegistryView view() {
        RegistryView v = view;
        if (v == null) {
            throw RegistryException.of(ErrorCode.NOT_READY, "the view is still being restored from the journal");
        }
        return v;
    }
}
