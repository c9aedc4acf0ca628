package io.quire.node.service;

import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.Responses;
import io.quire.node.api.SchemaVersion;
import io.quire.node.api.SubjectVersion;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.ProtoToDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** {@code GET /schemas…}: schemas by id, the subjects and versions that use them, and the list. */
public final class SchemaReads {

    private final ViewAccess access;
    private final SchemaParsing parsing;

    public SchemaReads(ViewAccess access, SchemaParsing parsing) {
        this.access = access;
        this.parsing = parsing;
    }

    /**
     * The context an id is read in, from the {@code subject} a client gives with it, as Confluent
     * reads it: none, the default context; a qualified one ({@code :.ctx:orders} or {@code :.ctx:}),
     * its context; an unqualified one, the default context when that subject uses the id there,
     * else the first named context where {@code :.ctx:subject} does, else the default context.
     */
    public Context contextOf(SchemaId id, String subject) {
        if (subject == null || subject.isEmpty()) {
            return Context.DEFAULT;
        }
        Subject s = Subject.of(subject);
        if (s.isQualified()) {
            return s.context();
        }
        RegistryView view = access.view();
        List<Context> named = view.contexts();
        // Without named contexts the answer is the default one: the deserializers' read by id (which
        // names its subject) costs one seek on the few context entries, not a scan of the id's users.
        if (named.isEmpty() || !view.usages().versionsWithId(s, id).isEmpty()) {
            return Context.DEFAULT;
        }
        for (Context c : named) {
            if (!view.usages().versionsWithId(c.subject(s.name()), id).isEmpty()) {
                return c;
            }
        }
        return Context.DEFAULT;
    }

    /** The prepared body of {@code GET /schemas/ids/{id}}: the hot path, one point lookup. */
    public byte[] schemaBody(Context context, SchemaId id) {
        byte[] body = access.view().schemaBytes(context, id);
        if (body == null) {
            throw RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id);
        }
        return body;
    }

    /**
     * {@code GET /schemas/guids/{guid}}: the schema with that GUID, from the default context if it
     * is there, else from the first named context that has it (40403 when none, or not a GUID).
     */
    public RegistryView.ContextId idOfGuid(String guid) {
        List<RegistryView.ContextId> ids = idsWithGuid(guid);
        if (ids.isEmpty()) {
            throw RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, guid);
        }
        return ids.get(0);
    }

    /** {@code GET /schemas/guids/{guid}/ids}: the ids with that GUID, one per context (empty when none). */
    public List<Responses.ContextId> idsOfGuid(String guid) {
        return idsWithGuid(guid).stream().map(c -> new Responses.ContextId(c.context().name(), c.id())).toList();
    }

    private List<RegistryView.ContextId> idsWithGuid(String text) {
        SchemaGuid guid;
        try {
            guid = SchemaGuid.parse(text);
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        return access.view().usages().idsForGuid(guid);
    }

    public StoredSchema schema(Context context, SchemaId id) {
        return access.view().schema(context, id).orElseThrow(() -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id));
    }

    /** The subject versions of the context that use the id there (soft-deleted ones with {@code deleted}). */
    public List<SubjectVersion> versionsOfId(Context context, SchemaId id, boolean deleted) {
        RegistryView view = access.view();
        if (view.schemaBytes(context, id) == null) {
            throw RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, id);
        }
        List<SubjectVersion> out = new ArrayList<>();
        for (RegistryView.Usage u : view.usages().usages(context, id)) {
            if (deleted || view.version(u.subject(), u.version()).map(v -> !v.deleted()).orElse(false)) {
                out.add(new SubjectVersion(u.subject(), u.version()));
            }
        }
        return out;
    }

    public List<Subject> subjectsOfId(Context context, SchemaId id, boolean deleted) {
        return versionsOfId(context, id, deleted).stream().map(SubjectVersion::subject).distinct().toList();
    }

    /** Where a {@code GET /schemas} page can start: the {@code skip}-th listed version of a subject. */
    record SchemaListPoint(String subject, int skip) {
    }

    private final ResumePoints<SchemaListPoint> resume = new ResumePoints<>(SubjectReads.RESUME_BYTES,
            p -> 48 + 2 * p.subject().length());

    /**
     * {@code GET /schemas}: subject versions in subject then version order, from {@code offset}, at
     * most {@code limit}; soft-deleted ones with {@code deleted}; only each subject's latest with
     * {@code latestOnly}. Seeks to the nearest point of this list an earlier scan left at or
     * before {@code offset} while no subject or version record has been written since
     * ({@link ResumePoints}), and stops scanning once the page is full.
     *
     * @param visibility what {@code visible} depends on (equal for callers who see the same subjects)
     */
    public List<SchemaVersion> schemas(String prefix, boolean deleted, boolean latestOnly, int offset, int limit,
                                       Predicate<Subject> visible, Object visibility) {
        RegistryView view = access.view();
        long writes = view.scans().subjectWrites(true);
        ResumePoints.Shape shape = new ResumePoints.Shape("schemas", prefix == null ? "" : prefix,
                (deleted ? "deleted" : "") + (latestOnly ? "latestOnly" : ""), visibility);
        ResumePoints.Point<SchemaListPoint> start = writes < 0 ? null : resume.floor(shape, writes, offset);
        List<SchemaVersion> out = new ArrayList<>();
        int[] at = {start == null ? 0 : start.offset()};
        int[] skipFirst = {start == null ? 0 : start.at().skip()};
        view.scans().subjectRecordsFrom(prefix, start == null ? null : start.at().subject(), (subject, record) -> {
            if (!visible.test(subject)) {
                return true;
            }
            List<VersionRecord> versions = view.versions(subject).stream().filter(v -> deleted || !v.deleted()).toList();
            if (latestOnly && !versions.isEmpty()) {
                versions = List.of(versions.get(versions.size() - 1));
            }
            int first = Math.min(skipFirst[0], versions.size());
            skipFirst[0] = 0;
            for (int i = first; i < versions.size(); i++) {
                int here = at[0]++;
                if (here % ResumePoints.STRIDE == 0 && here > 0) {
                    resume.remember(shape, writes, here, new SchemaListPoint(subject.name(), i));
                }
                if (here < offset) {
                    continue;
                }
                if (out.size() >= limit) {
                    resume.remember(shape, writes, here, new SchemaListPoint(subject.name(), i));
                    return false; // the page is full: the scan stops here
                }
                VersionRecord v = versions.get(i);
                view.schemaOf(subject, v).ifPresent(s -> out.add(SubjectReads.toApi(subject, v, s)));
            }
            return true;
        });
        return out;
    }

    /**
     * The schema in the {@code format} a client asked for: {@code serialized} turns Protobuf text
     * into a base64 FileDescriptorProto (what Confluent's clients read); anything else is as stored.
     */
    public StoredSchema inFormat(Context context, StoredSchema s, String format) {
        return inFormat(access.view(), parsing, context, s, format);
    }

    /** The highest id a stored schema has ({@code fetchMaxId}); 0 when there is none. */
    public long maxId() {
        return access.view().ids().maxSchemaId().map(SchemaId::value).orElse(0L);
    }

    /**
     * {@code format=resolved} turns Avro text with references into one self-contained schema
     * (the referenced types inlined where first used), as Confluent's Avro format does.
     */
    static StoredSchema inFormat(RegistryView view, SchemaParsing parsing, Context context, StoredSchema s,
                                 String format) {
        if ("resolved".equals(format) && s.schemaType() == SchemaType.AVRO && !s.references().isEmpty()) {
            String inlined = parsing.parse(view, context, s.schemaType(), s.schema(), s.references()).legacyCanonical();
            return inlined == null ? s : s.withText(inlined);
        }
        if (!"serialized".equals(format) || s.schemaType() != SchemaType.PROTOBUF) {
            return s;
        }
        Map<String, String> refs = new HashMap<>();
        for (SchemaReference r : s.references()) {
            Subject named = context.qualify(r.subject());
            view.version(named, r.version()).flatMap(v -> view.schemaOf(named, v))
                    .ifPresent(target -> refs.put(r.name(), target.schema()));
        }
        return s.withText(ProtoToDescriptor.serialized(s.schema(), refs));
    }
}
