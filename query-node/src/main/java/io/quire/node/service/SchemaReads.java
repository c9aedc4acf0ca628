package io.quire.node.service;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.Responses;
import io.quire.node.api.SchemaVersion;
import io.quire.node.api.SubjectVersion;
import io.quire.node.error.RegistryException;
import java.util.ArrayList;
import java.util.List;

/** {@code GET /schemas…}: schemas by id, the subjects and versions that use them, and the list. */
public final class SchemaReads {

    private final ViewAccess access;
    private final SchemaParsing parsing;

    public SchemaReads(ViewAccess access, SchemaParsing parsing) {
        this.access = access;
        this.parsing = parsing;
    }

    /** The prepared body of {@code GET /schemas/ids/{id}}: the hot path, one point lookup. */
    public byte[] schemaBody(SchemaId id) {
        byte[] body = access.view().schemaBytes(id);
        if (body == null) {
            throw RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id);
        }
        return body;
    }

    /** {@code GET /schemas/guids/{guid}}: the schema with that GUID (40403 when none, or not a GUID). */
    public StoredSchema schemaByGuid(String guid) {
        return schema(idOfGuid(guid).orElseThrow(() -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, guid)));
    }

    /** {@code GET /schemas/guids/{guid}/ids}: the ids with that GUID, one per context (empty when none). */
    public List<Responses.ContextId> idsOfGuid(String guid) {
        return idOfGuid(guid).map(id -> List.of(new Responses.ContextId(".", id))).orElse(List.of());
    }

    private java.util.Optional<SchemaId> idOfGuid(String text) {
        SchemaGuid guid;
        try {
            guid = SchemaGuid.parse(text);
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
        return access.view().idForGuid(guid);
    }

    public StoredSchema schema(SchemaId id) {
        return access.view().schema(id).orElseThrow(() -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id));
    }

    public List<SubjectVersion> versionsOfId(SchemaId id, boolean deleted) {
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

    public List<Subject> subjectsOfId(SchemaId id, boolean deleted) {
        return versionsOfId(id, deleted).stream().map(SubjectVersion::subject).distinct().toList();
    }

    /**
     * {@code GET /schemas}: subject versions in subject then version order, from {@code offset}, at
     * most {@code limit}; soft-deleted ones with {@code deleted}; only each subject's latest with
     * {@code latestOnly}. Stops scanning once the page is full.
     */
    public List<SchemaVersion> schemas(String prefix, boolean deleted, boolean latestOnly, int offset, int limit,
                                       java.util.function.Predicate<Subject> visible) {
        RegistryView view = access.view();
        List<SchemaVersion> out = new ArrayList<>();
        int skipped = 0;
        for (Subject subject : view.subjects(prefix)) {
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
                view.schema(v.schemaId()).ifPresent(s -> out.add(SubjectReads.toApi(subject, v, s)));
            }
        }
        return out;
    }

    /**
     * The schema in the {@code format} a client asked for: {@code serialized} turns Protobuf text
     * into a base64 FileDescriptorProto (what Confluent's clients read); anything else is as stored.
     */
    public StoredSchema inFormat(StoredSchema s, String format) {
        return inFormat(access.view(), parsing, s, format);
    }

    /** The highest id a stored schema has ({@code fetchMaxId}); 0 when there is none. */
    public long maxId() {
        return access.view().maxSchemaId().map(SchemaId::value).orElse(0L);
    }

    /**
     * {@code format=resolved} turns Avro text with references into one self-contained schema
     * (the referenced types inlined where first used), as Confluent's Avro format does.
     */
    static StoredSchema inFormat(RegistryView view, SchemaParsing parsing, StoredSchema s, String format) {
        if ("resolved".equals(format) && s.schemaType() == SchemaType.AVRO && !s.references().isEmpty()) {
            String inlined = parsing.parse(view, s.schemaType(), s.schema(), s.references()).legacyCanonical();
            return inlined == null ? s : s.withText(inlined);
        }
        if (!"serialized".equals(format) || s.schemaType() != SchemaType.PROTOBUF) {
            return s;
        }
        java.util.Map<String, String> refs = new java.util.HashMap<>();
        for (io.quire.journal.model.SchemaReference r : s.references()) {
            view.version(r.subject(), r.version()).flatMap(v -> view.schema(v.schemaId()))
                    .ifPresent(target -> refs.put(r.name(), target.schema()));
        }
        return s.withText(io.quire.node.schema.ProtoToDescriptor.serialized(s.schema(), refs));
    }
}
