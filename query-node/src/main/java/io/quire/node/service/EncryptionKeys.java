package io.quire.node.service;

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
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.DekStored;
import io.quire.journal.outcome.KekStored;
import io.quire.journal.outcome.KeysChanged;
import io.quire.node.api.DekResponse;
import io.quire.node.api.KeyRequests;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /dek-registry/v1/keks…}: Confluent's DEK registry. Every write is a journal command (the
 * applier's rules refuse at the edge first, so nothing doomed is journaled); reads come from the
 * view. The registry stores a DEK's material only as the client's KMS wrapped it.
 */
public final class EncryptionKeys {

    private static final Logger LOG = LoggerFactory.getLogger(EncryptionKeys.class);

    private final ViewAccess access;
    private final WritePath path;
    private final Kms kms;
    private final SecureRandom random = new SecureRandom();

    EncryptionKeys(ViewAccess access, WritePath path, Kms kms) {
        this.access = access;
        this.path = path;
        this.kms = kms;
    }

    /** The KEK names, soft-deleted ones with {@code deleted}. */
    public List<String> kekNames(boolean deleted) {
        return access.view().keys().keks().stream().filter(k -> deleted || !k.deleted()).map(Kek::name).toList();
    }

    /** A KEK; a soft-deleted one only with {@code deleted} (40470 otherwise). */
    public Kek kek(String name, boolean deleted) {
        checkName(name);
        return access.view().keys().kek(name).filter(k -> deleted || !k.deleted())
                .orElseThrow(() -> RegistryException.of(ErrorCode.KEY_NOT_FOUND, name));
    }

    /** The subjects that have DEKs under a KEK (live ones, or every one with {@code deleted}), in order. */
    public List<String> dekSubjects(String kekName, boolean deleted) {
        kek(kekName, deleted);
        TreeSet<String> out = new TreeSet<>();
        access.view().keys().deks(kekName, null, null).stream().filter(d -> deleted || !d.deleted())
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
    public DekResponse dek(String kekName, String subject, String algorithm, VersionSpec spec, boolean deleted) {
        Kek kek = kek(kekName, deleted);
        List<Dek> all = deks(kekName, subject, algorithm).stream().filter(d -> deleted || !d.deleted()).toList();
        Optional<Dek> found = spec.isLatest() ? all.stream().reduce((a, b) -> b)
                : all.stream().filter(d -> d.version() == spec.version().number()).findFirst();
        return answer(kek, found.orElseThrow(() -> RegistryException.of(ErrorCode.KEY_NOT_FOUND, subject)));
    }

    /** A DEK as answered: with its material in clear when its KEK is shared and this node reaches the KMS. */
    private DekResponse answer(Kek kek, Dek dek) {
        if (!kek.shared() || !kms.supports(kek.kmsType())) {
            return DekResponse.of(dek, null);
        }
        try {
            byte[] material = kms.unwrap(kek, Base64.getDecoder().decode(dek.encryptedKeyMaterial()));
            return DekResponse.of(dek, Base64.getEncoder().encodeToString(material));
        } catch (IllegalArgumentException e) {
            // Another secret wrapped it (or it was changed): the client may still open it with its own KMS.
            LOG.warn("the {} KMS of this node does not open the DEK of kek {} subject {} version {}: {}",
                    kek.kmsType(), kek.name(), dek.subject(), dek.version(), e.getMessage());
            return DekResponse.of(dek, null);
        }
    }

    private List<Dek> deks(String kekName, String subject, String algorithm) {
        checkSubject(subject);
        return access.view().keys().deks(kekName, subject, algorithm(algorithm));
    }

    public CompletableFuture<Written<Kek>> createKek(KeyRequests.CreateKek r, Principal principal) {
        return submitKek(new CreateKek(r.name(), r.kmsType(), r.kmsKeyId(), r.kmsProps(), r.doc(),
                Boolean.TRUE.equals(r.shared())), principal);
    }

    public CompletableFuture<Written<Kek>> updateKek(String name, KeyRequests.UpdateKek r, Principal principal) {
        checkName(name);
        return submitKek(new UpdateKek(name, r.kmsProps(), r.doc(), r.shared()), principal);
    }

    public CompletableFuture<Written<Integer>> deleteKek(String name, boolean permanent, Principal principal) {
        checkName(name);
        return submitChange(new DeleteKek(name, permanent), principal);
    }

    public CompletableFuture<Written<Integer>> undeleteKek(String name, Principal principal) {
        checkName(name);
        return submitChange(new UndeleteKek(name), principal);
    }

    /**
     * Stores a DEK version, its material wrapped by the client's KMS; or, for a shared KEK when the
     * request brings none, a key this node makes and wraps with the KEK's KMS (a KMS type this
     * node cannot reach is refused with 42271, never a 500). The material is made here, at the
     * edge, so the journal holds the wrapped key and every node answers the same one.
     */
    public CompletableFuture<Written<DekResponse>> createDek(String kekName, String pathSubject,
                                                             KeyRequests.CreateDek r, Principal principal) {
        checkName(kekName);
        String subject = pathSubject != null ? pathSubject : r.subject();
        checkSubject(subject);
        if (pathSubject != null && r.subject() != null && !r.subject().equals(pathSubject)) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "subject (the path and the body name different ones)");
        }
        Kek kek = kek(kekName, Boolean.TRUE.equals(r.deleted()));
        DekAlgorithm algorithm = algorithm(r.algorithm());
        String material = r.encryptedKeyMaterial();
        if ((material == null || material.isEmpty()) && kek.shared()) {
            if (!kms.supports(kek.kmsType())) {
                throw RegistryException.of(ErrorCode.INVALID_KEY, "encryptedKeyMaterial (this node cannot make keys"
                        + " through KMS type '" + kek.kmsType() + "'; the client must send the wrapped key)");
            }
            material = Base64.getEncoder().encodeToString(kms.wrap(kek, newKey(algorithm)));
        }
        CreateDek command = new CreateDek(kekName, subject, r.version(), algorithm, material);
        return path.submit(command, principal, DekStored.class, stored -> answer(kek, stored.dek()));
    }

    /**
     * A fresh key in the form Confluent's clients read DEK material: Tink's AesGcmKey (key_value is
     * field 3) or AesSivKey (field 2) message, version 0 (the default, so left out), then the key
     * bytes: 16 or 32 for AES-GCM, 64 for AES-SIV.
     */
    byte[] newKey(DekAlgorithm algorithm) {
        int size = switch (algorithm) {
            case AES128_GCM -> 16;
            case AES256_GCM -> 32;
            case AES256_SIV -> 64;
        };
        int field = algorithm == DekAlgorithm.AES256_SIV ? 2 : 3;
        byte[] out = new byte[2 + size];
        out[0] = (byte) (field << 3 | 2); // length-delimited
        out[1] = (byte) size;
        byte[] raw = new byte[size];
        random.nextBytes(raw);
        System.arraycopy(raw, 0, out, 2, size);
        return out;
    }

    public CompletableFuture<Written<Integer>> deleteDek(String kekName, String subject, String algorithm,
                                                         VersionSpec spec, boolean permanent, Principal principal) {
        checkName(kekName);
        checkSubject(subject);
        return submitChange(new DeleteDek(kekName, subject, algorithm(algorithm), version(kekName, subject,
                algorithm, spec), permanent), principal);
    }

    public CompletableFuture<Written<Integer>> undeleteDek(String kekName, String subject, String algorithm,
                                                           VersionSpec spec, Principal principal) {
        checkName(kekName);
        checkSubject(subject);
        return submitChange(new UndeleteDek(kekName, subject, algorithm(algorithm), version(kekName, subject,
                algorithm, spec)), principal);
    }

    /** The version a path names: null for all (no spec), the highest (soft-deleted ones too) for latest. */
    private Integer version(String kekName, String subject, String algorithm, VersionSpec spec) {
        if (spec == null) {
            return null;
        }
        if (!spec.isLatest()) {
            return spec.version().number();
        }
        return access.view().keys().deks(kekName, subject, algorithm(algorithm)).stream().reduce((a, b) -> b).map(Dek::version)
                .orElseThrow(() -> RegistryException.of(ErrorCode.KEY_NOT_FOUND, subject));
    }

    private CompletableFuture<Written<Kek>> submitKek(Command command, Principal principal) {
        return path.submit(command, principal, KekStored.class, KekStored::kek);
    }

    private CompletableFuture<Written<Integer>> submitChange(Command command, Principal principal) {
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
        if (!Subject.isValid(subject)) {
            throw RegistryException.of(ErrorCode.INVALID_KEY, "subject");
        }
    }
}
