package io.quire.node.service;

import io.quire.node.error.RegistryException;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Mode;
import io.quire.journal.model.SchemaType;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.SchemaVersion;
import io.quire.node.api.SubjectVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every read of the Confluent API, answered from the local view only (rule 7). Cheap; runs on event loops. */
public final class RegistryReads {

    private final ViewAccess access;

    public RegistryReads(ViewAccess access) {
        this.access = access;
    }

    /** The prepared body of {@code GET /schemas/ids/{id}}: the hot path, one point lookup. */
    public byte[] schemaBody(long id) {
        byte[] body = access.view().schemaBytes(id);
        if (body == null) {
            throw RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id);
        }
        return body;
    }

    public StoredSchema schema(long id) {
        return access.view().schema(id).orElseThrow(() -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id));
    }

    public List<SubjectVersion> versionsOfId(long id, boolean deleted) {
        RegistryView view = access.view();
        if (view.schemaBytes(id) == null) {
            throw RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id);
        }
        List<SubjectVersion> out = new ArrayList<>();
        for (RegistryView.Usage u : view.usages(id)) {
            if (deleted || view.version(u.subject(), u.version()).map(v -> !v.deleted()).orElse(false)) {
                out.add(new SubjectVersion(u.subject(), u.version()));
            }
        }
        return out;
    }

    public List<String> subjectsOfId(long id, boolean deleted) {
        return versionsOfId(id, deleted).stream().map(SubjectVersion::subject).distinct().toList();
    }

    public List<String> subjects(String prefix, boolean deleted, boolean deletedOnly) {
        RegistryView view = access.view();
        List<String> out = new ArrayList<>();
        for (String s : view.subjects(prefix)) {
            boolean soft = view.subject(s).map(SubjectRecord::softDeleted).orElse(true);
            if (deletedOnly ? soft : (deleted || !soft)) {
                out.add(s);
            }
        }
        return out;
    }

    public List<Integer> versions(String subject, boolean deleted, boolean deletedOnly) {
        RegistryView view = access.view();
        List<Integer> out = new ArrayList<>();
        for (VersionRecord v : view.versions(subject)) {
            if (deletedOnly ? v.deleted() : (deleted || !v.deleted())) {
                out.add(v.version());
            }
        }
        if (out.isEmpty() && (view.subject(subject).isEmpty() || !deleted && !deletedOnly)) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
        }
        return out;
    }

    /**
     * {@code GET /schemas}: subject versions in subject then version order, from {@code offset}, at
     * most {@code limit}; soft-deleted ones with {@code deleted}; only each subject's latest with
     * {@code latestOnly}. Stops scanning once the page is full.
     */
    public List<SchemaVersion> schemas(String prefix, boolean deleted, boolean latestOnly, int offset, int limit,
                                       java.util.function.Predicate<String> visible) {
        RegistryView view = access.view();
        List<SchemaVersion> out = new ArrayList<>();
        int skipped = 0;
        for (String subject : view.subjects(prefix)) {
            if (!visible.test(subject)) {
                continue;
            }
            List<VersionRecord> versions = view.versions(subject).stream().filter(v -> deleted || !v.deleted()).toList();
            if (latestOnly && !versions.isEmpty()) {
                versions = List.of(versions.get(versions.size() - 1));
            }
            for (VersionRecord v : versions) {
                if (skipped < offset) {
                    skipped++;
                    continue;
                }
                if (out.size() >= limit) {
                    return out;
                }
                view.schema(v.schemaId()).ifPresent(s -> out.add(toApi(subject, v, s)));
            }
        }
        return out;
    }

    /** Ids of the schemas in use whose references name this subject version. */
    public List<Long> referencedBy(String subject, VersionSpec spec) {
        RegistryView view = access.view();
        VersionRecord v = find(view, subject, spec, true);
        return view.referencedBy(subject, v.version());
    }

    /** One version as stored; soft-deleted ones only with {@code deleted=true}. */
    public SchemaVersion version(String subject, VersionSpec spec, boolean deleted) {
        return version(subject, spec, deleted, null);
    }

    static VersionRecord find(RegistryView view, String subject, VersionSpec spec, boolean deleted) {
        Optional<SubjectRecord> record = view.subject(subject);
        if (record.isEmpty() || record.get().softDeleted() && !deleted) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
        }
        Optional<VersionRecord> v;
        if (spec.isLatest()) {
            if (deleted) {
                List<VersionRecord> all = view.versions(subject);
                v = all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
            } else {
                v = view.latestLive(subject);
            }
        } else {
            v = view.version(subject, spec.number()).filter(x -> deleted || !x.deleted());
        }
        return v.orElseThrow(() -> RegistryException.of(ErrorCode.VERSION_NOT_FOUND,
                spec.isLatest() ? "latest" : spec.number()));
    }

    /**
     * The schema in the {@code format} a client asked for: {@code serialized} turns Protobuf text
     * into a base64 FileDescriptorProto (what Confluent's clients read); anything else is as stored.
     */
    public StoredSchema inFormat(StoredSchema s, String format) {
        if (!"serialized".equals(format) || s.schemaType() != SchemaType.PROTOBUF) {
            return s;
        }
        RegistryView view = access.view();
        java.util.Map<String, String> refs = new java.util.HashMap<>();
        for (io.quire.journal.model.SchemaReference r : s.references()) {
            view.version(r.subject(), r.version()).flatMap(v -> view.schema(v.schemaId()))
                    .ifPresent(target -> refs.put(r.name(), target.schema()));
        }
        return new StoredSchema(io.quire.node.schema.ProtobufDescriptors.serialized(s.schema(), refs), s.schemaType(),
                s.references());
    }

    /** One version, its schema in the {@code format} asked for (see {@link #inFormat}). */
    public SchemaVersion version(String subject, VersionSpec spec, boolean deleted, String format) {
        RegistryView view = access.view();
        VersionRecord v = find(view, subject, spec, deleted);
        StoredSchema s = view.schema(v.schemaId()).orElseThrow(
                () -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, v.schemaId()));
        return toApi(subject, v, inFormat(s, format));
    }

    static SchemaVersion toApi(String subject, VersionRecord v, StoredSchema s) {
        return new SchemaVersion(subject, v.version(), v.schemaId(),
                s.schemaType() == SchemaType.AVRO ? null : s.schemaType().name(), s.references(), s.schema());
    }

    public CompatibilityLevel globalLevel() {
        return access.view().globalLevel().orElse(CompatibilityLevel.DEFAULT);
    }

    /** The subject's own level; with {@code defaultToGlobal}, the global one when it has none. */
    public Optional<CompatibilityLevel> subjectLevel(String subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        Optional<CompatibilityLevel> own = view.subjectLevel(subject);
        return own.isPresent() || !defaultToGlobal ? own
                : Optional.of(view.globalLevel().orElse(CompatibilityLevel.DEFAULT));
    }

    public Optional<Boolean> globalNormalize() {
        return access.view().globalNormalize();
    }

    /** The subject's own normalize flag; with {@code defaultToGlobal}, the global one when it has none. */
    public Optional<Boolean> subjectNormalize(String subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        Optional<Boolean> own = view.subjectNormalize(subject);
        return own.isPresent() || !defaultToGlobal ? own : view.globalNormalize();
    }

    public Mode globalMode() {
        return access.view().globalMode().orElse(Mode.DEFAULT);
    }

    public Mode subjectMode(String subject, boolean defaultToGlobal) {
        RegistryView view = access.view();
        Optional<Mode> own = view.subjectMode(subject);
        if (own.isPresent()) {
            return own.get();
        }
        if (defaultToGlobal) {
            return view.globalMode().orElse(Mode.DEFAULT);
        }
        throw RegistryException.of(ErrorCode.SUBJECT_LEVEL_MODE_NOT_CONFIGURED, subject);
    }
}
