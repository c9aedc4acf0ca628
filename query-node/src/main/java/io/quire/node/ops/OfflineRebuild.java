package io.quire.node.ops;

import io.quire.journal.apply.Applier;
import io.quire.journal.apply.ApplyResult;
import io.quire.journal.codec.JournalCodec;
import io.quire.journal.command.Envelope;
import io.quire.journal.model.Offset;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.RegistryView;
import io.quire.node.view.apply.ApplyListener;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the journal from offset 0 with a plain consumer and applies it in memory with the same
 * pure applier a node uses: the reference a node's view must equal, byte for byte.
 */
public final class OfflineRebuild {

    /** The rebuilt view and the offset it ends before. */
    public record Result(InMemoryKv kv, long endOffset, long records) {
        public RegistryView view() {
            return new RegistryView(kv);
        }
    }

    private OfflineRebuild() {
    }

    public static Result rebuild(Properties kafka, String topic) {
        return rebuild(kafka, topic, ApplyListener.NONE);
    }

    /** As above, telling {@code listener} about every record applied. */
    public static Result rebuild(Properties kafka, String topic, ApplyListener listener) {
        TopicPartition tp = new TopicPartition(topic, 0);
        InMemoryKv kv = new InMemoryKv();
        RegistryView view = new RegistryView(kv);
        Applier applier = new Applier();
        long[] records = {0};
        long end;
        try {
            end = TopicReader.readToEnd(kafka, tp, (r, last) -> {
                Envelope e = JournalCodec.decode(r.value());
                Offset offset = Offset.of(r.offset());
                ApplyResult result = applier.apply(view, offset, e);
                kv.apply(result.changes());
                listener.applied(offset, e, result.outcome());
                records[0]++;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new Result(kv, end, records[0]);
    }
}
