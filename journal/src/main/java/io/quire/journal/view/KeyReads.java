package io.quire.journal.view;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Dek;
import io.quire.journal.model.DekAlgorithm;
import io.quire.journal.model.Kek;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The DEK registry's KEKs and DEKs. Part of {@link RegistryView}, which answers with it.
 */
public final class KeyReads {

    private final KvReader kv;

    KeyReads(KvReader kv) {
        this.kv = kv;
    }

    public Optional<Kek> kek(String name) {
        return Optional.ofNullable(kv.get(Keys.kek(name))).map(b -> decode(b, Kek.class));
    }

    /** Every KEK, by name, soft-deleted ones included. */
    public List<Kek> keks() {
        List<Kek> out = new ArrayList<>();
        kv.scan(Keys.KEKS, (k, v) -> {
            out.add(decode(v, Kek.class));
            return true;
        });
        return out;
    }

    /**
     * The DEK versions under a KEK (of a subject, of an algorithm: null for all), by subject,
     * algorithm and version, soft-deleted ones included.
     */
    public List<Dek> deks(String kekName, String subject, DekAlgorithm algorithm) {
        List<Dek> out = new ArrayList<>();
        kv.scan(Keys.deks(kekName, subject, algorithm), (k, v) -> {
            out.add(decode(v, Dek.class));
            return true;
        });
        return out;
    }

    public Optional<Dek> dek(String kekName, String subject, DekAlgorithm algorithm, int version) {
        return Optional.ofNullable(kv.get(Keys.dek(kekName, subject, algorithm, version))).map(b -> decode(b, Dek.class));
    }

    private static <T> T decode(byte[] json, Class<T> type) {
        try {
            return Json.MAPPER.readValue(json, type);
        } catch (java.io.IOException e) {
            throw new CorruptRecordException("cannot decode " + type.getSimpleName(), e);
        }
    }
}
