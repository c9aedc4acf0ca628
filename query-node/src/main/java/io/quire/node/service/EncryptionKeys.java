package io.quire.node.service;

import io.quire.journal.apply.Applier;
import io.quire.journal.command.Command;
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
import io.quire.journal.outcome.DekStored;
import io.quire.journal.outcome.KekStored;
import io.quire.journal.outcome.KeysChanged;
import io.quire.journal.view.RegistryView;
import io.quire.node.api.KeyRequests;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * {@code /dek-registry/v1/keks…}: Confluent's DEK registry. Every write is a journal command (the
 * applier's rules refuse at the edge first, so nothing doomed is journaled); reads come from the
 * view. The registry stores a DEK's material only as the client's KMS wrapped it.
 */
public final class EncryptionKeys {

    private final ViewAccess access;
    private final WritePath path;

    EncryptionKeys(ViewAccess access, WritePath path) {
        this.access = access;
        this.path = path;
    }

    /** The KEK names, soft-deleted ones with {@code deleted}. */
    public List<String> kekNames(boolean deleted) {
        return access.view().keks().stream().filter(k -> deleted || !k.deleted()).map(Kek::name).toList();
    }

    /** A KEK; a soft-deleted one only with {@code deleted} (40470 otherwise). */
    public Kek kek(String name, boolean deleted) {
        checkName(name);
        return access.view().kek(name).filter(k -> deleted || !k.deleted())
                .orElseThrow(() -> RegistryException.of(ErrorCode.KEY_NOT_FOUND, name));
    }

    /** The subjects that have DEKs under a KEK (live ones, or every one with {@code deleted}), in order. */
    public List<String> dekSubjects(String kekName, boolean deleted) {
        kek(kekName, deleted);
        TreeSet<String> out = new TreeSet<>();
        access.view().deks(kekName, null, null).stream().filter(d -> deleted || !d.deleted())
                .forEach(d -> out.add(d.subject()));
        return List.copyOf(out);
    }

    /** The version numbers of a subject's DEKs of an algorithm under a KEK. */
    public List<Integer> dekVersions(String kekName, String subject, String algorithm, boolean deleted) {
        kek(kekName, deleted);
        return deks(kekName, subject, algorithm).stream().filter(d -> deleted || !d.deleted()).map(Dek::version)
                .toList();
    }

    /** One DEK version ({@code spec} latest: the highest); soft-deleted ones with {@code deleted}. */
    public Dek dek(String kekName, String subject, String algorithm, VersionSpec spec, boolean deleted) {
        kek(kekName, deleted);
        List<Dek> all = deks(kekName, subject, algorithm).stream().filter(d -> deleted || !d.deleted()).toList();
        Optional<Dek> found = spec.isLatest() ? all.stream().reduce((a, b) -> b)
                : all.stream().filter(d -> d.version() == spec.version().number()).findFirst();
        return found.orElseThrow(() -> RegistryException.of(ErrorCode.KEY_NOT_FOUND, subject));
    }

    private List<Dek> deks(String kekName, String subject, String algorithm) {
        checkSubject(subject);
        return access.view().deks(kekName, subject, algorithm(algorithm));
    }

    public CompletableFuture<Written<Kek>> createKek(KeyRequests.CreateKek r, String principal) {
        return submitKek(new CreateKek(r.name(), r.kmsType(), r.kmsKeyId(), r.kmsProps(), r.doc(),
                Boolean.TRUE.equals(r.shared())), principal);
    }

    public CompletableFuture<Written<Kek>> updateKek(String name, KeyRequests.UpdateKek r, String principal) {
        checkName(name);
        return submitKek(new UpdateKek(name, r.kmsProps(), r.doc(), r.shared()), principal);
    }

    public CompletableFuture<Written<Integer>> deleteKek(String name, boolean permanent, String principal) {
        checkName(name);
        return submitChange(new DeleteKek(name, permanent), principal);
    }

    public CompletableFuture<Written<Integer>> undeleteKek(String name, String principal) {
        checkName(name);
        return submitChange(new UndeleteKek(name), principal);
    }

    /**
     * Stores a DEK version. The material must come wrapped by the client's KMS: a shared KEK (the
     * registry making the key through the KMS itself) needs a KMS this node can reach, and no KMS
     * type is configured here yet, so such a request is refused with 42271, never a 500.
     */
    public CompletableFuture<Written<Dek>> createDek(String kekName, String pathSubject, KeyRequests.CreateDek r,
                                                     String principal) {
        checkName(kekName);
        String subject = pathSubject != null ? pathSubject : r.subject();
        checkSubject(subject);
        if (pathSubject != null && r.subject() != null && !r.subject().equals(pathSubject)) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "subject (the path and the body name different ones)");
        }
        Kek kek = kek(kekName, Boolean.TRUE.equals(r.deleted()));
        if ((r.encryptedKeyMaterial() == null || r.encryptedKeyMaterial().isEmpty()) && kek.shared()) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "encryptedKeyMaterial (this registry does not make"
                    + " keys through KMS type '" + kek.kmsType() + "'; the client must send the wrapped key)");
        }
        CreateDek command = new CreateDek(kekName, subject, r.version(), algorithm(r.algorithm()),
                r.encryptedKeyMaterial());
        WritePath.refuse(Applier.refusal(access.view(), command));
        return path.submit(command, principal, DekStored.class, DekStored::dek);
    }

    public CompletableFuture<Written<Integer>> deleteDek(String kekName, String subject, String algorithm,
                                                         VersionSpec spec, boolean permanent, String principal) {
        checkName(kekName);
        checkSubject(subject);
        return submitChange(new DeleteDek(kekName, subject, algorithm(algorithm), version(kekName, subject,
                algorithm, spec, true), permanent), principal);
    }

    public CompletableFuture<Written<Integer>> undeleteDek(String kekName, String subject, String algorithm,
                                                           VersionSpec spec, String principal) {
        checkName(kekName);
        checkSubject(subject);
        return submitChange(new UndeleteDek(kekName, subject, algorithm(algorithm), version(kekName, subject,
                algorithm, spec, true)), principal);
    }

    /** The version a path names: null for all (no spec), the highest for latest. */
    private Integer version(String kekName, String subject, String algorithm, VersionSpec spec, boolean deleted) {
        if (spec == null) {
            return null;
        }
        if (!spec.isLatest()) {
            return spec.version().number();
        }
        return access.view().deks(kekName, subject, algorithm(algorithm)).stream().filter(d -> deleted || !d.deleted())
                .reduce((a, b) -> b).map(Dek::version)
                .orElseThrow(() -> RegistryException.of(ErrorCode.KEY_NOT_FOUND, subject));
    }

    private CompletableFuture<Written<Kek>> submitKek(Command command, String principal) {
        WritePath.refuse(Applier.refusal(access.view(), command));
        return path.submit(command, principal, KekStored.class, KekStored::kek);
    }

    private CompletableFuture<Written<Integer>> submitChange(Command command, String principal) {
        RegistryView view = access.view();
        WritePath.refuse(Applier.refusal(view, command));
        return path.submit(command, principal, KeysChanged.class, KeysChanged::count);
    }

    static DekAlgorithm algorithm(String text) {
        DekAlgorithm a = DekAlgorithm.parse(text);
        if (a == null) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "algorithm (AES128_GCM, AES256_GCM or AES256_SIV)");
        }
        return a;
    }

    private static void checkName(String name) {
        if (!Kek.isValidName(name)) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "name");
        }
    }

    private static void checkSubject(String subject) {
        if (!io.quire.journal.model.Subject.isValid(subject)) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "subject");
        }
    }
}
