package io.quire.journal.apply;

import io.quire.journal.command.CreateDek;
import io.quire.journal.command.CreateKek;
import io.quire.journal.command.DeleteDek;
import io.quire.journal.command.DeleteKek;
import io.quire.journal.command.UndeleteDek;
import io.quire.journal.command.UndeleteKek;
import io.quire.journal.command.UpdateKek;
import io.quire.journal.model.Dek;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Kek;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.DekStored;
import io.quire.journal.outcome.KekStored;
import io.quire.journal.outcome.KeysChanged;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.util.List;
import java.util.Optional;

/**
 * The DEK registry, as Confluent's: KEKs name keys in a KMS, DEKs (wrapped by a client's KMS) are
 * stored under them by subject, algorithm and version. A key is soft-deleted before it is removed;
 * a KEK is not deleted while DEKs use it. Key material never passes through here in clear: a DEK
 * carries only its encrypted material.
 */
final class KeyRules {

    private KeyRules() {
    }

    static Outcome createKek(RegistryView view, ViewWriter out, long timestamp, CreateKek c) {
        if (!Kek.isValidName(c.name())) {
            return Rejected.of(ErrorCode.INVALID_KEY, "name");
        }
        if (c.kmsType() == null || c.kmsType().isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_KEY, "kmsType");
        }
        if (c.kmsKeyId() == null || c.kmsKeyId().isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_KEY, "kmsKeyId");
        }
        if (view.keys().kek(c.name()).isPresent()) {
            return Rejected.of(ErrorCode.KEY_EXISTS, c.name());
        }
        Kek kek = new Kek(c.name(), c.kmsType(), c.kmsKeyId(), c.kmsProps(), c.doc(), c.shared(), timestamp, false);
        out.kek(kek);
        return new KekStored(kek);
    }

    static Outcome updateKek(RegistryView view, ViewWriter out, long timestamp, UpdateKek c) {
        Optional<Kek> old = liveKek(view, c.name());
        if (old.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.name());
        }
        Kek k = old.get();
        Kek kek = new Kek(k.name(), k.kmsType(), k.kmsKeyId(), c.kmsProps() != null ? c.kmsProps() : k.kmsProps(),
                c.doc() != null ? c.doc() : k.doc(), c.shared() != null ? c.shared() : k.shared(), timestamp, false);
        out.kek(kek);
        return new KekStored(kek);
    }

    static Outcome deleteKek(RegistryView view, ViewWriter out, long timestamp, DeleteKek c) {
        Optional<Kek> kek = view.keys().kek(c.name() == null ? "" : c.name());
        if (kek.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.name());
        }
        if (view.keys().deks(c.name(), null, null).stream().anyMatch(d -> c.permanent() || !d.deleted())) {
            return Rejected.of(ErrorCode.KEY_REFERENCE_EXISTS, c.name());
        }
        if (c.permanent()) {
            if (!kek.get().deleted()) {
                return Rejected.of(ErrorCode.KEY_NOT_SOFT_DELETED, c.name());
            }
            out.deleteKek(c.name());
        } else {
            out.kek(kek.get().withDeleted(true, timestamp));
        }
        return new KeysChanged(1);
    }

    static Outcome undeleteKek(RegistryView view, ViewWriter out, long timestamp, UndeleteKek c) {
        Optional<Kek> kek = view.keys().kek(c.name() == null ? "" : c.name());
        if (kek.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.name());
        }
        out.kek(kek.get().withDeleted(false, timestamp));
        return new KeysChanged(1);
    }

    static Outcome createDek(RegistryView view, ViewWriter out, long timestamp, CreateDek c) {
        Optional<Kek> kek = liveKek(view, c.kekName());
        if (kek.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.kekName());
        }
        if (!Subject.isValid(c.dekSubject())) {
            return Rejected.of(ErrorCode.INVALID_KEY, "subject");
        }
        int version = c.version() == null ? 1 : c.version();
        if (version < 1) {
            return Rejected.of(ErrorCode.INVALID_VERSION, version);
        }
        DekAlgorithm algorithm = c.algorithm() == null ? DekAlgorithm.DEFAULT : c.algorithm();
        if (view.keys().dek(c.kekName(), c.dekSubject(), algorithm, version).isPresent()) {
            return Rejected.of(ErrorCode.KEY_EXISTS, c.dekSubject());
        }
        if (c.encryptedKeyMaterial() == null || c.encryptedKeyMaterial().isEmpty()) {
            return Rejected.of(ErrorCode.INVALID_KEY, "encryptedKeyMaterial");
        }
        Dek dek = new Dek(c.kekName(), c.dekSubject(), version, algorithm, c.encryptedKeyMaterial(), timestamp, false);
        out.dek(dek);
        return new DekStored(dek);
    }

    static Outcome deleteDek(RegistryView view, ViewWriter out, long timestamp, DeleteDek c) {
        if (view.keys().kek(c.kekName() == null ? "" : c.kekName()).isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.kekName());
        }
        List<Dek> targets = targets(view, c.kekName(), c.dekSubject(), c.algorithm(), c.version());
        if (targets.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.dekSubject());
        }
        for (Dek d : targets) {
            if (c.permanent() && !d.deleted()) {
                return Rejected.of(ErrorCode.KEY_NOT_SOFT_DELETED, c.dekSubject());
            }
        }
        for (Dek d : targets) {
            if (c.permanent()) {
                out.deleteDek(d);
            } else {
                out.dek(d.withDeleted(true, timestamp));
            }
        }
        return new KeysChanged(targets.size());
    }

    static Outcome undeleteDek(RegistryView view, ViewWriter out, long timestamp, UndeleteDek c) {
        Optional<Kek> kek = view.keys().kek(c.kekName() == null ? "" : c.kekName());
        if (kek.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.kekName());
        }
        if (kek.get().deleted()) {
            return Rejected.of(ErrorCode.KEY_SOFT_DELETED, c.kekName());
        }
        List<Dek> targets = targets(view, c.kekName(), c.dekSubject(), c.algorithm(), c.version());
        if (targets.isEmpty()) {
            return Rejected.of(ErrorCode.KEY_NOT_FOUND, c.dekSubject());
        }
        targets.forEach(d -> out.dek(d.withDeleted(false, timestamp)));
        return new KeysChanged(targets.size());
    }

    private static Optional<Kek> liveKek(RegistryView view, String name) {
        return name == null ? Optional.empty() : view.keys().kek(name).filter(k -> !k.deleted());
    }

    /** The DEK versions a delete or undelete names: one version, or every version of the subject and algorithm. */
    private static List<Dek> targets(RegistryView view, String kekName, String subject, DekAlgorithm algorithm,
                                     Integer version) {
        if (subject == null || !Subject.isValid(subject)) {
            return List.of();
        }
        DekAlgorithm a = algorithm == null ? DekAlgorithm.DEFAULT : algorithm;
        if (version != null) {
            return view.keys().dek(kekName, subject, a, version).map(List::of).orElse(List.of());
        }
        return view.keys().deks(kekName, subject, a);
    }
}
