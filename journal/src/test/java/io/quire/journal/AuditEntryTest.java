package io.quire.journal;

import io.quire.journal.command.CommandId;
import io.quire.journal.model.Principal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Subject;
import io.quire.journal.view.AuditEntry;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored form of audit entries: every field back as it went in, and no read past its end. */
class AuditEntryTest {

    static final List<AuditEntry> ENTRIES = List.of(
            new AuditEntry(Offset.of(7), 1_764_460_800_999L, Principal.of("ci-bot"), "node-1", CommandId.of("c-1"), "RegisterSchema",
                    Subject.of("orders-value"), "SchemaRegistered", null),
            new AuditEntry(Offset.of(0), 0, null, null, null, "Unreadable", null, "Rejected", 50001),
            new AuditEntry(Offset.of(Long.MAX_VALUE), -1L, Principal.of(""), "n", CommandId.of("c"), "DeleteSubject",
                    Subject.of("sujet-é-✓-" + "x".repeat(300)), "Rejected", 40401),
            new AuditEntry(Offset.of(3), Long.MIN_VALUE, Principal.of("p"), "n", CommandId.of("c"), "SetMode", null, "ModeSet", Integer.MAX_VALUE),
            new AuditEntry(Offset.of(4), 5, Principal.of("p"), "n", CommandId.of("c"), "SetMode", null, "Rejected", -1));

    @Test
    void everyEntryReadsBackEqual() {
        for (AuditEntry e : ENTRIES) {
            assertEquals(e, AuditEntry.decode(e.offset(), e.encode()));
        }
    }

    @Test
    void theStoredFormIsWellUnderTheJsonOne() throws Exception {
        AuditEntry e = ENTRIES.get(0);
        int json = Json.MAPPER.writeValueAsBytes(e).length;
        assertTrue(e.encode().length * 2 < json, e.encode().length + " bytes against " + json + " as JSON");
    }

    @Test
    void aTruncatedOrLongerOrForeignEntryIsCorruptNotMisread() {
        for (AuditEntry e : ENTRIES) {
            byte[] b = e.encode();
            for (int cut = 0; cut < b.length; cut++) {
                byte[] part = Arrays.copyOf(b, cut);
                assertThrows(CorruptRecordException.class, () -> AuditEntry.decode(e.offset(), part), "cut at " + cut);
            }
            byte[] longer = Arrays.copyOf(b, b.length + 1);
            assertThrows(CorruptRecordException.class, () -> AuditEntry.decode(e.offset(), longer));
        }
        byte[] json = "{\"offset\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThrows(CorruptRecordException.class, () -> AuditEntry.decode(Offset.of(1), json));
    }
}
