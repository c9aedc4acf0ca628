package io.quire.journal.view;

import io.quire.journal.model.Context;
import io.quire.journal.model.SchemaGuid;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView.ContextId;
import io.quire.journal.view.RegistryView.Usage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which subject versions use an id, which schemas reference a subject version, and the ids of
 * a GUID. Part of {@link RegistryView}, which answers with it.
 */
public final class UsageReads {

    private final KvReader kv;
    private final RegistryView view;

    UsageReads(KvReader kv, RegistryView view) {
        this.kv = kv;
        this.view = view;
    }

    /** Which subject versions of a context use an id there, ascending by subject then version, soft-deleted ones included. */
    public List<Usage> usages(Context context, SchemaId id) {
        List<Usage> out = new ArrayList<>();
        kv.scan(Keys.usages(id), (k, v) -> {
            Subject s = Keys.usageSubject(k);
            if (s.context().equals(context)) {
                out.add(new Usage(s, Keys.versionOf(k)));
            }
            return true;
        });
        return out;
    }

    /**
     * Which subject versions use an id in any context. An imported id may hold other content in
     * another context; callers that know the context ask {@link #usages(Context, SchemaId)}.
     */
    public List<Usage> usagesInEveryContext(SchemaId id) {
        List<Usage> out = new ArrayList<>();
        kv.scan(Keys.usages(id), (k, v) -> {
            out.add(new Usage(Keys.usageSubject(k), Keys.versionOf(k)));
            return true;
        });
        return out;
    }

    /**
     * The live version of the subject that has this id, if any: content is registered once per
     * subject (the applier's rule, and the edge's check before it journals anything).
     */
    public Optional<Version> liveVersionWithId(Subject subject, SchemaId id) {
        for (Version v : versionsWithId(subject, id)) {
            if (view.version(subject, v).map(r -> !r.deleted()).orElse(false)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The versions of one subject that use an id (soft-deleted ones included). */
    public List<Version> versionsWithId(Subject subject, SchemaId id) {
        List<Version> out = new ArrayList<>();
        kv.scan(Keys.usages(id, subject), (k, v) -> {
            out.add(Keys.versionOf(k));
            return true;
        });
        return out;
    }

    /**
     * Ids of schemas whose references name this subject version and that some subject version
     * (live or soft-deleted) still uses, ascending.
     */
    public List<SchemaId> referencedBy(Subject subject, Version version) {
        return referrers(subject, version, true, null);
    }

    /**
     * Ids of schemas whose references name this subject version and that a version of a subject
     * other than {@code except} (null: any subject) uses: a live version, or a soft-deleted one too
     * when {@code countSoftDeleted}; ascending.
     */
    public List<SchemaId> referrers(Subject subject, Version version, boolean countSoftDeleted, Subject except) {
        List<SchemaId> out = new ArrayList<>();
        kv.scan(Keys.referencedBy(subject, version), (k, v) -> {
            SchemaId id = Keys.referencingId(k);
            boolean[] used = {false};
            kv.scan(Keys.usages(id), (uk, uv) -> {
                Subject user = Keys.usageSubject(uk);
                used[0] = !user.equals(except) && (countSoftDeleted
                        || view.version(user, Keys.versionOf(uk)).filter(r -> !r.deleted()).isPresent());
                return !used[0];
            });
            if (used[0]) {
                out.add(id);
            }
            return true;
        });
        return out;
    }

    /**
     * The ids of the content with this GUID, one per context that stores it, the default context
     * first, then by context name (schemas stored since GUIDs exist).
     */
    public List<ContextId> idsForGuid(SchemaGuid guid) {
        List<ContextId> out = new ArrayList<>();
        kv.scan(Keys.guids(guid), (k, v) -> {
            out.add(new ContextId(Keys.guidContext(k), SchemaId.of(ByteBuffer.wrap(v).getLong())));
            return true;
        });
        return out;
    }
}
