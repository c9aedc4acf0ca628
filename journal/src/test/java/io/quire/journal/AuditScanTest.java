package io.quire.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.CommandId;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Principal;
import io.quire.journal.view.AuditEntry;
import io.quire.journal.view.Changes;
import io.quire.journal.view.InMemoryKv;
import io.quire.journal.view.KvReader;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A page of the audit trail costs the page, not the entries before it. */
class AuditScanTest {

    /** A store that counts the entries it hands out; {@code seeks} false walks as a store without seeking would. */
    static final class Counting implements KvReader {
        final KvReader inner;
        final boolean seeks;
        long visited;

        Counting(KvReader inner, boolean seeks) {
            this.inner = inner;
            this.seeks = seeks;
        }

        @Override
        public byte[] get(byte[] key) {
            return inner.get(key);
        }

        @Override
        public void scan(byte[] prefix, KvVisitor visitor) {
            inner.scan(prefix, (k, v) -> {
                visited++;
                return visitor.visit(k, v);
            });
        }

        @Override
        public void scanFrom(byte[] prefix, byte[] start, KvVisitor visitor) {
            if (!seeks) {
                KvReader.super.scanFrom(prefix, start, visitor);
                return;
            }
            inner.scanFrom(prefix, start, (k, v) -> {
                visited++;
                return visitor.visit(k, v);
            });
        }
    }

    @Test
    void aPageNearTheEndOfALongTrailVisitsThePageOnly() {
        InMemoryKv kv = new InMemoryKv();
        Changes changes = new Changes();
        ViewWriter out = new ViewWriter(changes);
        for (long i = 0; i < 20_000; i++) {
            out.audit(new AuditEntry(Offset.of(i), 1000 + i, Principal.of("p"), "n", CommandId.of("c" + i), "SetMode", null, "ModeSet", null));
        }
        kv.apply(changes);
        for (boolean seeks : new boolean[] {false, true}) {
            Counting counting = new Counting(kv, seeks);
            List<Long> page = new ArrayList<>();
            new RegistryView(counting).audit().audit(Offset.of(19_990), e -> {
                page.add(e.offset().value());
                return page.size() < 5;
            });
            assertEquals(List.of(19_990L, 19_991L, 19_992L, 19_993L, 19_994L), page);
            if (seeks) {
                assertEquals(5, counting.visited, "seeking: the page");
            } else {
                assertEquals(19_995, counting.visited, "walking: every entry before the page, and the page");
            }
        }
    }

    @Test
    void aTimeIsFoundByASeekPerStepAndTheScanStartsAClockSkewBeforeIt() {
        InMemoryKv kv = new InMemoryKv();
        Changes changes = new Changes();
        ViewWriter out = new ViewWriter(changes);
        for (long i = 0; i < 20_000; i++) { // one entry a second
            out.audit(new AuditEntry(Offset.of(i), i * 1000, Principal.of("p"), "n", CommandId.of("c" + i), "SetMode", null, "ModeSet", null));
        }
        out.position(new io.quire.journal.view.Position(Offset.of(19_999), new byte[32], io.quire.journal.view.Position.CURRENT_DIGEST_VERSION));
        kv.apply(changes);
        Counting counting = new Counting(kv, true);
        RegistryView view = new RegistryView(counting);
        long skewed = RegistryView.AUDIT_CLOCK_SKEW_MILLIS / 1000;
        assertEquals(15_000 - skewed, view.audit().firstAuditOffsetFrom(15_000_000L).value());
        assertTrue(counting.visited <= 20, "a seek per step of the search: " + counting.visited);
        assertEquals(0, view.audit().firstAuditOffsetFrom(0).value(), "before the trail: its start");
        assertEquals(20_000, view.audit().firstAuditOffsetFrom(30_000_000L).value(), "after it: its end");

        // A range of 10 s: the scan starts a skew before it and stops at the first entry a skew after it.
        counting.visited = 0;
        List<Long> inRange = new ArrayList<>();
        view.audit().audit(Offset.of(0), 15_000_000L, 15_009_000L, e -> {
            if (e.timestamp() >= 15_000_000L && e.timestamp() <= 15_009_000L) {
                inRange.add(e.offset().value());
            }
            return true;
        });
        assertEquals(java.util.stream.LongStream.rangeClosed(15_000, 15_009).boxed().toList(), inRange);
        assertTrue(counting.visited <= 20 + 2 * skewed + 10 + 1, "the search, two skews and the range: "
                + counting.visited);
    }
}
