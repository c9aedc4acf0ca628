package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Principal;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.SubjectRecord;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.SchemaVersion;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.InvalidSchemaException;
import io.quire.node.schema.ParsedSchema;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The registry as Apicurio's v3 API names it: artifacts in group {@code default} are the subjects
 * of the default context, an artifact's versions are the subject's versions, a content id is the
 * Confluent schema id, and a global id is the version's own id (given in journal order, the same on
 * every node). A soft-deleted version is a DISABLED one; an imported deprecated one is DEPRECATED.
 */
public final class Artifacts {

    /** The one group Quire serves: Apicurio's name for the default context. */
    public static final String DEFAULT_GROUP = "default";

    /** How a version is found: {@code branch=latest} (or {@code latest}) or a version number. */
    public static final String LATEST = "branch=latest";

    /** What {@code POST /groups/{g}/artifacts} does when the artifact exists ({@code ifExists}). */
    public enum IfExists { FAIL, CREATE_VERSION, FIND_OR_CREATE_VERSION }

    /** One version's coordinates and dates, as Apicurio's {@code VersionMetaData} carries them. */
    public record VersionMeta(Subject subject, Version version, SchemaId contentId, long globalId, SchemaType type,
                              String state, Instant createdOn) {
    }

    /** One artifact's dates, as Apicurio's {@code ArtifactMetaData} carries them. */
    public record ArtifactMeta(Subject subject, SchemaType type, Instant createdOn, Instant modifiedOn) {
    }

    /** A content and the references it was stored with. */
    public record Content(SchemaType type, String text, List<SchemaReference> references) {
    }

    /** A search's page and how many versions matched in all. */
    public record Page(List<VersionMeta> versions, int count) {
    }

    /** A refusal in Apicurio's own terms (its status and exception name), where no Confluent code says it. */
    public static final class Problem extends RuntimeException {
        private final int status;
        private final String name;

        public Problem(int status, String name, String title) {
            super(title, null, false, false);
            this.status = status;
            this.name = name;
        }

        public int status() {
            return status;
        }

        public String name() {
            return name;
        }
    }

    private final ViewAccess access;
    private final SchemaParsing parsing;
    private final Registrations registrations;

    public Artifacts(ViewAccess access, SchemaParsing parsing, Registrations registrations) {
        this.access = access;
        this.parsing = parsing;
        this.registrations = registrations;
    }

    /** The subject an artifact of a group is, or a 404 for any group other than {@code default}. */
    public static Subject subject(String group, String artifactId) {
        requireDefaultGroup(group);
        Subject s = Subject.of(artifactId);
        if (!Subject.isValid(s) || !s.context().isDefault()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, artifactId);
        }
        return s;
    }

    /** Group {@code default}, or none (Apicurio's clients send {@code null} or leave it out for it). */
    static boolean isDefaultGroup(String group) {
        return group == null || group.equals(DEFAULT_GROUP) || group.equals("null");
    }

    static void requireDefaultGroup(String group) {
        if (!isDefaultGroup(group)) {
            throw new RegistryException(ErrorCode.SUBJECT_NOT_FOUND, "No group '" + group + "' (Quire serves the "
                    + "group 'default', which is the default context's subjects)");
        }
    }

    /** A version by number or {@code branch=latest} (the highest version that is not soft-deleted). */
    public VersionMeta version(Subject subject, String expression) {
        RegistryView view = access.view();
        Optional<SubjectRecord> record = view.subject(subject);
        if (record.isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
        }
        Optional<VersionRecord> v;
        if (LATEST.equals(expression) || "latest".equals(expression)) {
            v = view.latestLive(subject);
        } else {
            v = number(expression).flatMap(n -> view.version(subject, Version.of(n)));
        }
        return meta(view, subject, v.orElseThrow(() -> new RegistryException(ErrorCode.VERSION_NOT_FOUND,
                "No version '" + expression + "' found for artifact with ID '" + subject + "' in group 'default'")));
    }

    /** An artifact's type and dates (of its first and latest version), soft-deleted versions included. */
    public ArtifactMeta artifact(Subject subject) {
        RegistryView view = access.view();
        List<VersionRecord> all = view.versions(subject);
        if (all.isEmpty()) {
            throw RegistryException.of(ErrorCode.SUBJECT_NOT_FOUND, subject);
        }
        VersionRecord last = all.get(all.size() - 1);
        SchemaType type = view.schemaOf(subject, last).map(StoredSchema::schemaType).orElse(SchemaType.AVRO);
        return new ArtifactMeta(subject, type, instant(all.get(0).registeredAt()), instant(last.registeredAt()));
    }

    /** The content of a version (as stored, or Avro with its references inlined). */
    public Content content(Subject subject, String expression, boolean dereference) {
        VersionMeta v = version(subject, expression);
        return content(subject.context(), v.contentId(), dereference);
    }

    /** The content of a version found by its global id (read in its subject's context). */
    public Content content(VersionMeta v, boolean dereference) {
        return content(v.subject().context(), v.contentId(), dereference);
    }

    /** The content of a content id in the default context. */
    public Content content(SchemaId contentId, boolean dereference) {
        return content(Context.DEFAULT, contentId, dereference);
    }

    private Content content(Context context, SchemaId id, boolean dereference) {
        RegistryView view = access.view();
        StoredSchema s = view.schema(context, id).orElseThrow(() -> new RegistryException(ErrorCode.SCHEMA_NOT_FOUND,
                "No content with ID '" + id + "' was found."));
        if (dereference) {
            s = SchemaReads.inFormat(view, parsing, context, s, "resolved");
        }
        return new Content(s.schemaType(), s.schema(), s.references());
    }

    /** The version with a global id. */
    public VersionMeta byGlobalId(long globalId) {
        RegistryView view = access.view();
        RegistryView.Usage u = view.ids().versionOfGlobalId(globalId).orElseThrow(() -> new RegistryException(
                ErrorCode.VERSION_NOT_FOUND, "No version with global ID '" + globalId + "' found."));
        return meta(view, u.subject(), view.version(u.subject(), u.version()).orElseThrow());
    }

    /** The content id of a content hash (see {@link io.quire.journal.view.ContentHash}). */
    public SchemaId byContentHash(String hash) {
        return access.view().ids().idForContentHash(Context.DEFAULT, hash).orElseThrow(() -> new RegistryException(
                ErrorCode.SCHEMA_NOT_FOUND, "No content with hash '" + hash + "' was found."));
    }

    /**
     * {@code POST /search/versions}: the versions whose content is {@code text}, by Quire's content
     * identity (the schema as parsed, so formatting does not matter), newest global id first or
     * last; soft-deleted ones too (as DISABLED). With an artifact, a schema that names types of
     * other schemas is read with the references of that artifact's versions.
     */
    public Page search(String group, Subject artifact, SchemaType type, String text, boolean ascending, int offset,
                       int limit, Predicate<Subject> visible) {
        if (!isDefaultGroup(group)) {
            return new Page(List.of(), 0);
        }
        RegistryView view = access.view();
        Set<SchemaId> ids = new LinkedHashSet<>();
        for (SchemaType t : type == null ? List.of(SchemaType.AVRO, SchemaType.JSON, SchemaType.PROTOBUF) : List.of(type)) {
            idOf(view, t, text, List.of()).ifPresent(ids::add);
            if (artifact != null) {
                Set<List<SchemaReference>> tried = new LinkedHashSet<>();
                List<VersionRecord> versions = view.versions(artifact);
                for (int i = versions.size() - 1; i >= 0; i--) {
                    view.schemaOf(artifact, versions.get(i)).map(StoredSchema::references)
                            .filter(r -> !r.isEmpty() && tried.add(r))
                            .flatMap(r -> idOf(view, t, text, r)).ifPresent(ids::add);
                }
            }
        }
        List<VersionMeta> found = new ArrayList<>();
        for (SchemaId id : ids) {
            for (RegistryView.Usage u : view.usages().usages(Context.DEFAULT, id)) {
                if ((artifact == null || artifact.equals(u.subject())) && visible.test(u.subject())) {
                    view.version(u.subject(), u.version()).ifPresent(v -> found.add(meta(view, u.subject(), v)));
                }
            }
        }
        Comparator<VersionMeta> byGlobalId = Comparator.comparingLong(VersionMeta::globalId);
        found.sort(ascending ? byGlobalId : byGlobalId.reversed());
        int from = Math.min(Math.max(0, offset), found.size());
        return new Page(List.copyOf(found.subList(from, Math.min(found.size(), from + Math.max(0, limit)))),
                found.size());
    }

    private Optional<SchemaId> idOf(RegistryView view, SchemaType type, String text, List<SchemaReference> refs) {
        ParsedSchema<?> parsed;
        try {
            parsed = parsing.parse(view, Context.DEFAULT, type, text, refs);
        } catch (InvalidSchemaException | RegistryException e) {
            return Optional.empty();
        }
        Optional<SchemaId> id = view.ids().idForFingerprint(Context.DEFAULT, parsed.fingerprint());
        if (id.isEmpty() && parsed.legacy().isPresent()) {
            id = view.ids().idForFingerprint(Context.DEFAULT, parsed.legacy().get().fingerprint());
        }
        return id;
    }

    /**
     * {@code POST /groups/default/artifacts}: registers the first (or next) version as a Confluent
     * registration would (the same content in the subject is the version it already is, the
     * subject's compatibility level is checked); {@code FAIL} refuses an artifact that has live
     * versions, and {@code version}, when given, must be the number the version gets.
     */
    public CompletableFuture<Written<VersionMeta>> create(Subject subject, IfExists ifExists, String version,
                                                          RegisterRequest req, Principal principal) {
        RegistryView view = access.view();
        boolean exists = view.subject(subject).map(r -> !r.softDeleted()).orElse(false);
        if (exists && ifExists == IfExists.FAIL) {
            throw new Problem(409, "ArtifactAlreadyExistsException", "An artifact with ID '" + subject
                    + "' in group 'default' already exists.");
        }
        Optional<Integer> wanted = Optional.empty();
        if (version != null && !version.isEmpty()) {
            wanted = number(version);
            int next = view.subject(subject).map(r -> r.latestVersion().number() + 1).orElse(1);
            if (wanted.isEmpty() || wanted.get() != next) {
                throw new RegistryException(ErrorCode.BAD_REQUEST, "Version '" + version + "' cannot be given: "
                        + "Quire numbers versions 1, 2, 3…, and the next version of '" + subject + "' is " + next);
            }
        }
        return registrations.register(subject, req, false, principal)
                .thenCompose(written -> registrations.lookup(subject, req, true, false)
                        .thenApply(found -> new Written<>(version(subject, found), written.offset())));
    }

    private VersionMeta version(Subject subject, SchemaVersion found) {
        RegistryView view = access.view();
        return meta(view, subject, view.version(subject, found.version()).orElseThrow());
    }

    private static VersionMeta meta(RegistryView view, Subject subject, VersionRecord v) {
        SchemaType type = view.schemaOf(subject, v).map(StoredSchema::schemaType).orElse(SchemaType.AVRO);
        String state = v.deleted() ? "DISABLED" : v.deprecated() ? "DEPRECATED" : "ENABLED";
        return new VersionMeta(subject, v.version(), v.schemaId(), v.globalId(), type, state,
                instant(v.registeredAt()));
    }

    private static Instant instant(long millis) {
        return millis <= 0 ? null : Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS);
    }

    private static Optional<Integer> number(String s) {
        if (s == null || s.isEmpty() || s.length() > 10 || !s.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        long n = Long.parseLong(s);
        return n < 1 || n > Integer.MAX_VALUE ? Optional.empty() : Optional.of((int) n);
    }
}
