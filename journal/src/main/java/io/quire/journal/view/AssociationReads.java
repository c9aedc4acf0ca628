package io.quire.journal.view;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Association;
import io.quire.journal.model.Subject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Associations of resources with subjects, by resource, by subject and by resource name. Part of {@link RegistryView}, which answers with it.
 */
public final class AssociationReads {

    private final KvReader kv;

    AssociationReads(KvReader kv) {
        this.kv = kv;
    }

    /** A resource's associations of a type ({@code type} null: every type), ordered by type and role. */
    public List<Association> associations(String resourceId, String type) {
        List<Association> out = new ArrayList<>();
        kv.scan(Keys.associations(resourceId, type), (k, v) -> {
            out.add(association(v));
            return true;
        });
        return out;
    }

    /** The associations of a subject. */
    public List<Association> subjectAssociations(Subject subject) {
        List<Association> out = new ArrayList<>();
        byte[] prefix = Keys.subjectAssociations(subject);
        kv.scan(prefix, (k, v) -> {
            String[] parts = new String(k, prefix.length, k.length - prefix.length, StandardCharsets.UTF_8).split("\u0000", 3);
            association(parts[0], parts[1], parts[2]).ifPresent(out::add);
            return true;
        });
        return out;
    }

    /** The associations of resources with this name, in a namespace or ({@code namespace} null) in any. */
    public List<Association> associationsByName(String name, String namespace) {
        List<Association> out = new ArrayList<>();
        byte[] prefix = Keys.associationsByName(name, null);
        kv.scan(prefix, (k, v) -> {
            String[] parts = new String(k, prefix.length, k.length - prefix.length, StandardCharsets.UTF_8).split("\u0000", 4);
            if (namespace == null || namespace.equals(parts[0])) {
                association(parts[3], parts[1], parts[2]).ifPresent(out::add);
            }
            return true;
        });
        return out;
    }

    public Optional<Association> association(String resourceId, String type, String role) {
        return Optional.ofNullable(kv.get(Keys.association(resourceId, type, role))).map(AssociationReads::association);
    }

    private static Association association(byte[] json) {
        try {
            return Json.MAPPER.readValue(json, Association.class);
        } catch (java.io.IOException e) {
            throw new CorruptRecordException("cannot decode association", e);
        }
    }
}
