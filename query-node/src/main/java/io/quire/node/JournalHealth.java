package io.quire.node;

import io.quire.node.kafka.JournalAdmin;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the journal's brokers answer, and the journal's end offset (for the apply-lag gauge):
 * refreshed by the node's housekeeping thread every few seconds. Silence of more than 12 s makes
 * readiness say DEGRADED.
 */
final class JournalHealth {

    private static final Logger LOG = LoggerFactory.getLogger(JournalHealth.class);
    static final long SILENCE_NANOS = 12_000_000_000L;
    static final int REFRESH_SECONDS = 4;

    private final JournalAdmin admin;
    private final AtomicLong endOffset = new AtomicLong(-1);
    private volatile long lastContact = System.nanoTime();
    private boolean lastCheckOk = true;

    JournalHealth(JournalAdmin admin, long endOffset) {
        this.admin = admin;
        this.endOffset.set(endOffset);
    }

    void refresh() {
        try {
            endOffset.set(admin.endOffset(4_000));
        } catch (Exception e) {
            if (lastCheckOk) {
                LOG.warn("journal unreachable: {}", e.toString());
            }
            lastCheckOk = false;
            return;
        }
        if (!lastCheckOk) {
            LOG.info("journal reachable again");
        }
        lastCheckOk = true;
        lastContact = System.nanoTime();
    }

    boolean reachable() {
        return System.nanoTime() - lastContact < SILENCE_NANOS;
    }

    long endOffset() {
        return endOffset.get();
    }
}
