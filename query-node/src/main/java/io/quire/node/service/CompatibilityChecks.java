package io.quire.node.service;

import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.VersionRecord;
import io.quire.node.api.RegisterRequest;
import io.quire.node.schema.CompatibilityChecker.Earlier;
import io.quire.node.schema.CompatibilityChecker;
import io.quire.node.schema.ParsedSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /compatibility/subjects/{s}/versions[/{v}]}: would this schema be accepted, and
 * which earlier versions a check at a level compares with (registrations use the same).
 */
public final class CompatibilityChecks {

    private final ViewAccess access;
    private final SchemaParsing parsing;
    private final WritePath path;

    CompatibilityChecks(ViewAccess access, SchemaParsing parsing, WritePath path) {
        this.access = access;
        this.parsing = parsing;
        this.path = path;
    }

    /**
     * The compatibility endpoints: against one version ({@code spec} not null, in the directions of
     * the subject's level) or against the versions the level names.
     */
    public CompletableFuture<List<String>> checkCompatibility(Subject subject, VersionSpec spec, RegisterRequest req) {
        SchemaType type = WritePath.schemaType(req.schemaType());
        return path.work(() -> {
            RegistryView view = access.view();
            ParsedSchema<?> parsed = parsing.parse(view, type, req.schema(), req.referencesOrEmpty());
            CompatibilityLevel level = view.effectiveLevel(subject);
            List<Earlier> against;
            if (spec != null && spec.isLatest() && view.latestLive(subject).isEmpty()) {
                return List.of(); // nothing to be compatible with, as Confluent answers
            }
            if (spec != null) {
                VersionRecord v = SubjectReads.find(view, subject, spec, false);
                against = List.of(new Earlier(v.version(), parsing.parseStored(view, v.schemaId())));
            } else {
                against = earlier(parsing, view, subject, level);
            }
            return CompatibilityChecker.check(parsing.support(type), level, parsed, against);
        });
    }

    /** The live versions a check at this level compares with, oldest first. */
    static List<Earlier> earlier(SchemaParsing parsing, RegistryView view, Subject subject, CompatibilityLevel level) {
        List<Earlier> out = new ArrayList<>();
        if (level == CompatibilityLevel.NONE) {
            return out;
        }
        if (!level.transitive) {
            view.latestLive(subject).ifPresent(v -> out.add(new Earlier(v.version(), parsing.parseStored(view, v.schemaId()))));
            return out;
        }
        for (VersionRecord v : view.versions(subject)) {
            if (!v.deleted()) {
                out.add(new Earlier(v.version(), parsing.parseStored(view, v.schemaId())));
            }
        }
        return out;
    }
}
