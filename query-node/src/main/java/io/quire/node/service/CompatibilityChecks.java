package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.lint.Lint;
import io.quire.node.schema.CompatibilityChecker.Earlier;
import io.quire.node.schema.CompatibilityChecker;
import io.quire.node.schema.ParsedSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
        return checkCompatibility(subject, spec, req, null);
    }

    /**
     * As above, at {@code level} instead of the subject's own when it is not null (Quire's
     * {@code ?level=} on the compatibility endpoints, for a "what if" from the console).
     */
    public CompletableFuture<List<String>> checkCompatibility(Subject subject, VersionSpec spec, RegisterRequest req,
                                                              CompatibilityLevel asked) {
        SchemaType type = WritePath.schemaType(req.schemaType());
        return path.work(() -> {
            RegistryView view = access.view();
            ParsedSchema<?> parsed = parsing.parse(view, subject.context(), type, req.schema(), req.referencesOrEmpty());
            CompatibilityLevel level = asked != null ? asked : view.config().effectiveLevel(subject);
            List<Earlier> against;
            DecisionReads reads = DecisionReads.through(parsing, view);
            ConfigFields fields = view.config().effectiveFields(subject);
            DataContract contract = DataContract.forRegistration(reads, view, subject, fields, req);
            // a lint config that refuses: its violations are the registration's refusal, reported here too
            List<String> lint = lintProblems(parsed, req, contract, fields);
            if (spec != null && spec.isLatest() && view.latestLive(subject).isEmpty()) {
                return lint; // nothing to be compatible with, as Confluent answers
            }
            if (spec != null) {
                VersionRecord v = SubjectReads.find(view, subject, spec, false);
                against = List.of(toEarlier(reads, subject, v));
            } else {
                against = earlier(reads, view, subject, level, fields.compatibilityGroup(), contract);
            }
            List<String> problems = new ArrayList<>(lint);
            problems.addAll(ReservedFields.problems(view, parsing.support(type), subject, parsed,
                    contract, Boolean.TRUE.equals(fields.validateFields())));
            problems.addAll(CompatibilityChecker.check(parsing.support(type), level, parsed, against));
            return problems;
        });
    }

    /** The violations of a refusing lint config, each as "lint: RULE at path: message"; none under a warning one. */
    private static List<String> lintProblems(ParsedSchema<?> parsed, RegisterRequest req, DataContract contract,
                                             ConfigFields fields) {
        Lint.Settings lint = Lint.settingsOrNone(fields.lint());
        if (lint.warns()) {
            return List.of();
        }
        return Lint.check(parsed, req.schema(), contract.metadata(), lint).stream().map(v -> "lint: " + v).toList();
    }

    /**
     * The live versions a check at this level compares a new schema with, oldest first. With a
     * compatibility group configured, only the versions whose metadata has the same value for the
     * group's property as the new schema's contract (both absent counts as the same), as Confluent
     * checks major versions apart.
     */
    static List<Earlier> earlier(DecisionReads reads, RegistryView view, Subject subject, CompatibilityLevel level,
                                 String group, DataContract contract) {
        List<Earlier> out = new ArrayList<>();
        if (level == CompatibilityLevel.NONE) {
            return out;
        }
        if (!level.transitive && group == null) { // the latest live version only: no scan of the subject
            view.latestLive(subject).ifPresent(v -> out.add(toEarlier(reads, subject, v)));
            return out;
        }
        List<VersionRecord> candidates = new ArrayList<>();
        for (VersionRecord v : view.versions(subject)) {
            if (!v.deleted() && (group == null
                    || Objects.equals(contract.groupValue(group), groupValue(view, subject, v, group)))) {
                candidates.add(v);
            }
        }
        if (!level.transitive && candidates.size() > 1) {
            candidates = candidates.subList(candidates.size() - 1, candidates.size());
        }
        for (VersionRecord v : candidates) {
            out.add(toEarlier(reads, subject, v));
        }
        return out;
    }

    /** A stored version, parsed, to check a new schema against. */
    private static Earlier toEarlier(DecisionReads reads, Subject subject, VersionRecord v) {
        return new Earlier(v.version(), reads.parsedStored(subject.context(), v.schemaId()));
    }

    private static String groupValue(RegistryView view, Subject subject, VersionRecord v, String group) {
        Metadata m = view.schemaOf(subject, v).map(StoredSchema::metadata).orElse(null);
        return m == null ? null : m.properties().get(group);
    }
}
