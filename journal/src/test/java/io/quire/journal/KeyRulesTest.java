package io.quire.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.CommandId;
import io.quire.journal.command.CreateDek;
import io.quire.journal.command.CreateKek;
import io.quire.journal.command.DeleteDek;
import io.quire.journal.command.DeleteKek;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.UndeleteDek;
import io.quire.journal.command.UndeleteKek;
import io.quire.journal.command.UpdateKek;
import io.quire.journal.model.Dek;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Kek;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.DekStored;
import io.quire.journal.outcome.KekStored;
import io.quire.journal.outcome.KeysChanged;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.ViewDigest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The DEK registry's rules: given a journal, this outcome and this view. */
class KeyRulesTest {

    ReplayedJournal journal;

    @BeforeEach
    void oneKek() {
        journal = new ReplayedJournal();
        journal.append(Envelope.of(CommandId.of("c0"), "n1", Principal.of("alice"), 1_000L, new CreateKek("kek1", "local-kms", "key-1",
                Map.of("a", "1"), "doc", false)));
    }

    ErrorCode refused(Outcome o) {
        return assertInstanceOf(Rejected.class, o).error();
    }

    Outcome dek(String subject, Integer version, String material) {
        return journal.append(new CreateDek("kek1", subject, version, null, material));
    }

    @Test
    void aKekIsMadeOnceWithItsJournalTimeAndOnlyItsPropsDocAndFlagChange() {
        Kek kek = journal.view().keys().kek("kek1").orElseThrow();
        assertEquals(new Kek("kek1", "local-kms", "key-1", Map.of("a", "1"), "doc", false, 1_000L, false), kek);
        assertEquals(ErrorCode.KEY_EXISTS, refused(journal.append(new CreateKek("kek1", "aws-kms", "k", null, null,
                false))), "409: the client then reads the existing one");
        assertEquals(ErrorCode.INVALID_KEY, refused(journal.append(new CreateKek("1bad", "local-kms", "k", null, null,
                false))), "a name starts with a letter or _");
        assertEquals(ErrorCode.INVALID_KEY, refused(journal.append(new CreateKek("k2", "", "k", null, null, false))));
        assertEquals(ErrorCode.INVALID_KEY, refused(journal.append(new CreateKek("k2", "local-kms", null, null, null,
                false))));
        Outcome updated = journal.append(new UpdateKek("kek1", null, "new doc", true));
        Kek now = assertInstanceOf(KekStored.class, updated).kek();
        assertEquals("new doc", now.doc());
        assertTrue(now.shared());
        assertEquals(Map.of("a", "1"), now.kmsProps(), "absent: kept");
        assertEquals("key-1", now.kmsKeyId(), "the KMS key never changes");
        assertEquals(ErrorCode.KEY_NOT_FOUND, refused(journal.append(new UpdateKek("nope", null, "d", null))));
    }

    @Test
    void aDekVersionIsStoredOnceAndASecondWriterGetsTheConflict() {
        Dek first = assertInstanceOf(DekStored.class, journal.append(Envelope.of(CommandId.of("c1"), "n1", Principal.of("bob"), 5_000L,
                new CreateDek("kek1", "orders-value", null, null, "d3JhcHBlZA==")))).dek();
        assertEquals(new Dek("kek1", "orders-value", 1, DekAlgorithm.AES256_GCM, "d3JhcHBlZA==", 5_000L, false), first,
                "version 1 and AES256_GCM by default; ts is the journal's time, which clients read to expire a DEK");
        assertEquals(ErrorCode.KEY_EXISTS, refused(dek("orders-value", 1, "b3RoZXI=")),
                "two serializers racing: the second is told, and reads the first one's key");
        assertEquals("d3JhcHBlZA==", journal.view().keys().dek("kek1", "orders-value", DekAlgorithm.AES256_GCM, 1)
                .orElseThrow().encryptedKeyMaterial());
        assertInstanceOf(DekStored.class, dek("orders-value", 2, "cm90YXRlZA=="), "a rotation adds a version");
        assertEquals(2, journal.view().keys().deks("kek1", "orders-value", DekAlgorithm.AES256_GCM).size());
        assertEquals(ErrorCode.INVALID_KEY, refused(dek("orders-value", 3, null)),
                "a KEK that is not shared: the client brings the wrapped key");
        assertEquals(ErrorCode.KEY_NOT_FOUND, refused(journal.append(new CreateDek("nope", "s", 1, null, "eA=="))));
        assertEquals(ErrorCode.INVALID_VERSION, refused(dek("orders-value", 0, "eA==")));
        assertEquals(ErrorCode.INVALID_KEY, refused(dek("", 1, "eA==")));
    }

    @Test
    void keysAreSoftDeletedBeforeTheyGoAndAKekStaysWhileDeksUseIt() {
        dek("orders-value", 1, "eA==");
        dek("orders-value", 2, "eQ==");
        assertEquals(ErrorCode.KEY_REFERENCE_EXISTS, refused(journal.append(new DeleteKek("kek1", false))));
        assertEquals(ErrorCode.KEY_NOT_SOFT_DELETED, refused(journal.append(new DeleteDek("kek1", "orders-value",
                null, null, true))));
        assertEquals(new KeysChanged(1), journal.append(new DeleteDek("kek1", "orders-value", null, 2, false)));
        assertTrue(journal.view().keys().dek("kek1", "orders-value", DekAlgorithm.AES256_GCM, 2).orElseThrow().deleted());
        assertEquals(new KeysChanged(2), journal.append(new DeleteDek("kek1", "orders-value", null, null, false)));
        assertEquals(new KeysChanged(1), journal.append(new DeleteKek("kek1", false)), "its DEKs are all deleted");
        assertEquals(ErrorCode.KEY_NOT_FOUND, refused(dek("other-value", 1, "eA==")), "no DEK under a deleted KEK");
        assertEquals(ErrorCode.KEY_SOFT_DELETED, refused(journal.append(new UndeleteDek("kek1", "orders-value", null,
                null))), "the KEK first");
        assertEquals(ErrorCode.KEY_REFERENCE_EXISTS, refused(journal.append(new DeleteKek("kek1", true))),
                "soft-deleted DEKs still keep a KEK from going for good");
        assertEquals(new KeysChanged(1), journal.append(new UndeleteKek("kek1")));
        assertEquals(new KeysChanged(2), journal.append(new UndeleteDek("kek1", "orders-value", null, null)));
        journal.append(new DeleteDek("kek1", "orders-value", null, null, false));
        assertEquals(new KeysChanged(2), journal.append(new DeleteDek("kek1", "orders-value", null, null, true)));
        assertEquals(List.of(), journal.view().keys().deks("kek1", null, null));
        journal.append(new DeleteKek("kek1", false));
        assertEquals(new KeysChanged(1), journal.append(new DeleteKek("kek1", true)));
        assertTrue(journal.view().keys().kek("kek1").isEmpty());
    }

    @Test
    void aReplayGivesTheSameKeysAndTheSameDigest() {
        dek("orders-value", 1, "eA==");
        journal.append(new DeleteDek("kek1", "orders-value", null, 1, false));
        ReplayedJournal again = new ReplayedJournal();
        journal.records().forEach(again::append);
        assertEquals(ViewDigest.of(journal.view().kv()), ViewDigest.of(again.view().kv()));
        assertEquals(journal.view().keys().deks("kek1", null, null), again.view().keys().deks("kek1", null, null));
    }
}
