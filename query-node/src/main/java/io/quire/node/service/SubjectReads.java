package io.quire.node.service;

import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.SchemaVersion;
import io.quire.node.error.RegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** {@code GET /subjects…}: subjects, their versions, one version, and what references it. */
public final class SubjectReads {

    private final ViewAccess access;
    private final SchemaParsing parsing;

    public SubjectReads(ViewAccess access, SchemaParsing parsing) {
        this.access = access;
        this.parsing = parsing;
    }

    /** Resume points of subject lists, bounded at {@value #RESUME_BYTES} bytes. */
    static final long RESUME_BYTES = 4L << 20;

    private final ResumePoints<String> resume = new ResumePoints<>(RESUME_BYTES, name -> 40 + 2 * name.length());

    public List<Subject> subjects(String prefix, boolean deleted, boolean deletedOnly) {
        return subjects(prefix, deleted, deletedOnly, s -> true, List.of(), null, 0, -1);
    }

    /**
     * The subjects a list asks for, {@code visible} to the caller, after the subject named
     * {@code after} if given, from {@code offset}, at most {@code limit} (-1: all). The scan seeks
     * to {@code after}, or to the nearest point of this list an earlier scan left at or before
     * {@code offset} while no subject record has been written since ({@link ResumePoints}); it
     * stops once the page is full.
     *
     * @param visibility what {@code visible} depends on (equal for callers who see the same subjects)
     */
    public List<Subject> subjects(String prefix, boolean deleted, boolean deletedOnly,
                                  Predicate<Subject> visible, Object visibility, String after,
                                  int offset, int limit) {
        RegistryView view = access.view();
        long writes = after == null ? view.scans().subjectWrites(false) : -1;
        ResumePoints.Shape shape = new ResumePoints.Shape("subjects", prefix == null ? "" : prefix,
                deletedOnly ? "deletedOnly" : deleted ? "deleted" : "", visibility);
        ResumePoints.Point<String> start = writes < 0 ? null : resume.floor(shape, writes, offset);
        List<Subject> out = new ArrayList<>();
        int[] at = {start == null ? 0 : start.offset()};
        String from = start != null ? start.at() : after == null ? null : after + '\0';
        view.scans().subjectRecordsFrom(prefix, from, (s, record) -> {
            boolean soft = record.softDeleted();
            if (!(deletedOnly ? soft : (deleted || !soft)) || !visible.test(s)) {
                return true;
            }
            int here = at[0]++;
            if (here % ResumePoints.STRIDE == 0 && here > 0) {
                resume.remember(shape, writes, here, s.name());
            }
            if (here < offset) {
                return true;
            }
            if (limit >= 0 && out.size() >= limit) {
                resume.remember(shape, writes, here, s.name()); // where the next page starts
                return false;
            }
            out.add(s);
            return true;
        });
        return out;
    }

    public List<Version> versions(Subject subject, boolean deleted, boolean deletedOnly) {
        return versions(subject, deleted, deletedOnly, false);
    }

    /** The versions; with {@code deletedAsNegative}, the soft-deleted ones among them as negative numbers. */
    public List<Version> versions(Subject subject, boolean deleted, boolean deletedOnly, boolean deletedAsNegative) {
        RegistryView view = access.view();
        List<Version> out = new ArrayList<>();
        for (VersionRecord v : view.versions(subject)) {
            if (deletedOnly ? v.deleted() : (deleted || !v.deleted())) {
                out.add(v.deleted() && deletedAsNegative ? Version.of(-v.version().number()) : v.version());
            }
        }
        if (out.isEmpty() && (view.subject(subject).isEmpty() || !deleted && !deletedOnly)) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
        }
        return out;
    }

    /**
     * Ids of the schemas whose references name this subject version and that a live subject version
     * uses; with {@code deleted}, soft-deleted users count too.
     */
    public List<SchemaId> referencedBy(Subject subject, VersionSpec spec, boolean deleted) {
        RegistryView view = access.view();
        VersionRecord v = find(view, subject, spec, true);
        List<SchemaId> out = new ArrayList<>();
        for (SchemaId id : view.usages().referencedBy(subject, v.version())) {
            if (deleted || view.usages().usagesInEveryContext(id).stream().anyMatch(u -> view.version(u.subject(), u.version())
                    .map(x -> !x.deleted()).orElse(false))) {
                out.add(id);
            }
        }
        return out;
    }

    /** One version as stored; soft-deleted ones only with {@code deleted=true}. */
    public SchemaVersion version(Subject subject, VersionSpec spec, boolean deleted) {
        return version(subject, spec, deleted, null);
    }

    /** One version, its schema in the {@code format} asked for (see {@link SchemaReads#inFormat}). */
    public SchemaVersion version(Subject subject, VersionSpec spec, boolean deleted, String format) {
        RegistryView view = access.view();
        VersionRecord v = find(view, subject, spec, deleted);
        StoredSchema s = view.schemaOf(subject, v).orElseThrow(
                () -> RegistryException.of(ErrorCode.SCHEMA_NOT_FOUND, v.schemaId()));
        return toApi(subject, v, SchemaReads.inFormat(view, parsing, subject.context(), s, format));
    }

    /**
     * {@code GET /subjects/{s}/metadata}: the latest version (soft-deleted ones with {@code deleted})
     * whose metadata holds every given property, as {@code use.latest.with.metadata} and migration
     * rules ask; 40401 when the subject has no such versions at all, else 40403.
     */
    public SchemaVersion latestWithMetadata(Subject subject, Map<String, String> properties, boolean deleted,
                                            String format) {
        RegistryView view = access.view();
        List<VersionRecord> all = view.versions(subject);
        boolean any = false;
        for (int i = all.size() - 1; i >= 0; i--) {
            VersionRecord v = all.get(i);
            if (v.deleted() && !deleted) {
                continue;
            }
            any = true;
            StoredSchema s = view.schemaOf(subject, v).orElseThrow();
            if (s.metadata() != null && s.metadata().hasProperties(properties)) {
                return toApi(subject, v, SchemaReads.inFormat(view, parsing, subject.context(), s, format));
            }
        }
        if (!any) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
        }
        throw new RegistryException(ErrorCode.SCHEMA_NOT_FOUND, "Schema not found");
    }

    static VersionRecord find(RegistryView view, Subject subject, VersionSpec spec, boolean deleted) {
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
            v = view.version(subject, spec.version()).filter(x -> deleted || !x.deleted());
        }
        return v.orElseThrow(() -> RegistryException.of(ErrorCode.VERSION_NOT_FOUND,
                spec.isLatest() ? "latest" : spec.number()));
    }

    static SchemaVersion toApi(Subject subject, VersionRecord v, StoredSchema s) {
        return new SchemaVersion(subject, v.version(), v.schemaId(), s.guid(),
                s.schemaType() == SchemaType.AVRO ? null : s.schemaType().name(), s.references(), s.metadata(),
                s.ruleSet(), s.schema(), v.registeredAt() == 0 ? null : v.registeredAt());
    }
}
