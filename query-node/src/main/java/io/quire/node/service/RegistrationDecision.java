package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Mode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.StoredSchema;
import io.quire.journal.view.VersionRecord;
import io.quire.node.error.RegistryException;
import io.quire.node.lint.Lint;
import io.quire.node.lint.Violation;
import io.quire.node.schema.CompatibilityChecker;
import io.quire.node.schema.Fingerprints;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.search.SchemaTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a registration comes to against one view of the registry and its subject's settings,
 * resolved once: the version it already is, a refusal with its code, or the command to journal.
 * Pure functions of the view, the settings and the request: no journal, no clock, no id lease (a
 * new schema's id is leased after, by the caller), nothing thrown and no cache filled (the reads go
 * through {@link DecisionReads}; the caller keeps what they read). The applier re-checks the same
 * things with the same view reads ({@code liveVersionWithId}, the level and the subject's revision
 * the command carries) and refuses what changed in between.
 */
public final class RegistrationDecision {

    /** The verdict: {@link Known}, {@link Proposed} or {@link Refused}. */
    public sealed interface Verdict permits Known, Proposed, Refused {
    }

    /** The content is a live version of the subject already: nothing to write. */
    public record Known(SchemaId id, Version version, DataContract contract, Offset at) implements Verdict {
    }

    /**
     * A new version to journal: under {@code existingId} when the content is stored in the context
     * already, else under an id the caller leases; checked at {@code level} against the subject
     * as of {@code revision}. {@code latestOnly} is the id of the latest live version when the check
     * reads only that one (a level that is not transitive, no compatibility group): once this
     * version is registered, the subject's next such check reads this one instead.
     */
    public record Proposed(Subject subject, ParsedSchema<?> parsed, Fingerprint fingerprint, Optional<SchemaId> existingId,
                           CompatibilityLevel level, Offset revision, DataContract contract,
                           List<Violation> lintWarnings, Optional<SchemaId> latestOnly) implements Verdict {

        /** The command, with the id the version takes, the lint warnings (for the audit trail) and, for new content, its search terms. */
        public RegisterSchema command(SchemaId id) {
            return new RegisterSchema(subject, parsed.type(), parsed.canonical(), parsed.references(), fingerprint, id,
                    level, revision, contract.metadata(), contract.ruleSet(), lintWarningLines(),
                    existingId.isPresent() ? List.of() : SchemaTerms.of(parsed)); // stored content has its terms filed
        }

        /** The lint warnings as the answer and the audit trail give them: "RULE at path: message". */
        public List<String> lintWarningLines() {
            return lintWarnings.stream().map(Violation::toString).toList();
        }

        /** Whether it must wait for the subject's earlier writes: at level NONE nothing is checked or ordered. */
        public boolean ordered() {
            return level != CompatibilityLevel.NONE;
        }
    }

    /**
     * What {@link #lookup} found before a registration waits in its subject's queue: the contract
     * merged, the content's fingerprint and stored id, as of the subject's {@code revision} under
     * {@code settings}; and the version the schema already is, if it is one, or the refusal of a
     * merged rule set that breaks the rules for rule sets.
     */
    public record Lookup(DataContract contract, Fingerprint fingerprint, Optional<SchemaId> existingId, Offset revision,
                         SubjectSettings settings, Optional<Known> known, Refused refused) {
    }

    /** Refused, with Confluent's code and message. */
    public record Refused(ErrorCode error, String message) implements Verdict {

        static Refused of(ErrorCode error, Object... args) {
            return new Refused(error, error.message(args));
        }

        /** The refusal as the client will see it. */
        public RegistryException exception() {
            return new RegistryException(error, message);
        }
    }

    private RegistrationDecision() {
    }

    /**
     * The request on its own, before its schema is parsed: what Confluent refuses whatever the
     * schema (an id outside IMPORT mode or none in it, a version that is not the next, a rule set
     * that breaks the rules for rule sets); empty when it may go on.
     */
    public static Optional<Refused> admit(RegistryView view, Subject subject, SubjectSettings settings,
                                          RegisterRequest req) {
        boolean givesId = req.id() != null && req.id() >= 0;
        if (settings.mode() == Mode.IMPORT) {
            return givesId ? Optional.empty() : Optional.of(new Refused(ErrorCode.OPERATION_NOT_PERMITTED,
                    "Subject " + subject + " is in import mode: a registration must give the schema's id"));
        }
        if (givesId || req.globalId() != null || req.deprecated() != null) {
            return Optional.of(new Refused(ErrorCode.OPERATION_NOT_PERMITTED,
                    "Subject " + subject + " is not in import mode; id, globalId and deprecated cannot be given"));
        }
        int next = view.subject(subject).map(r -> r.latestVersion().number() + 1).orElse(1);
        if (req.version() != null && req.version() > 0 && req.version() != next) {
            // Confluent's register: a version may be given outside IMPORT only if it is the next one
            return Optional.of(new Refused(ErrorCode.INVALID_SCHEMA, "(version " + req.version()
                    + " is not one more than the previous version)"));
        }
        String badRules = req.ruleSet() == null ? null : req.ruleSet().problem();
        return badRules == null ? Optional.empty() : Optional.of(Refused.of(ErrorCode.INVALID_RULESET, badRules));
    }

    /**
     * Decides a registration of {@code parsed} under {@code subject} as the request asks (its data
     * contract merged with the subject's): the version it already is (with that contract, or, for a
     * request that gives none in a subject whose config merges none, with the contract it was stored
     * with, as Confluent looks a schema up before merging), else the new version unless the reserved
     * fields or the compatibility check refuse it (409 with every problem).
     */
    public static Verdict decide(DecisionReads reads, RegistryView view, Subject subject, SubjectSettings settings,
                                 ParsedSchema<?> parsed, RegisterRequest req) {
        return decide(reads, view, subject, settings, parsed, req, null);
    }

    /**
     * As above, taking what {@code prior} looked up when the subject and its settings have not moved
     * since (a subject nobody else writes to): the contract is merged and the content looked up once.
     * An id found stored meanwhile by another subject is the applier's to keep (rule 3).
     */
    public static Verdict decide(DecisionReads reads, RegistryView view, Subject subject, SubjectSettings settings,
                                 ParsedSchema<?> parsed, RegisterRequest req, Lookup prior) {
        Lookup lookup = prior != null && prior.known().isEmpty() && prior.refused() == null
                && prior.settings().equals(settings) && prior.revision().equals(view.revision(subject)) ? prior
                : lookup(reads, view, subject, settings, parsed, req);
        if (lookup.refused() != null) {
            return lookup.refused();
        }
        if (lookup.known().isPresent()) {
            return lookup.known().get();
        }
        DataContract contract = lookup.contract();
        Fingerprint fingerprint = lookup.fingerprint();
        Optional<SchemaId> existing = lookup.existingId();
        CompatibilityLevel level = settings.level();
        Lint.Settings lint = settings.lint();
        List<Violation> violations = Lint.check(parsed, req.schema(), contract.metadata(), lint);
        if (!violations.isEmpty() && !lint.warns()) {
            return lintRefusal(violations);
        }
        List<String> problems = new ArrayList<>(ReservedFields.problems(view, reads.support(parsed.type()), subject,
                parsed, contract, settings.validatesFields()));
        problems.addAll(CompatibilityChecker.check(reads.support(parsed.type()), level, parsed,
                CompatibilityChecks.earlier(reads, view, subject, level, settings.fields().compatibilityGroup(),
                        contract)));
        if (!problems.isEmpty()) {
            return Refused.of(ErrorCode.INCOMPATIBLE_SCHEMA, subject, problems);
        }
        Optional<SchemaId> latestOnly = level.transitive || settings.fields().compatibilityGroup() != null
                ? Optional.empty() : view.latestLive(subject).map(VersionRecord::schemaId);
        return new Proposed(subject, parsed, fingerprint, existing, level, view.revision(subject), contract, violations,
                latestOnly);
    }

    /** 42201 with every violation, as an invalid schema is answered. */
    static Refused lintRefusal(List<Violation> violations) {
        StringBuilder b = new StringBuilder("Invalid schema: lint: ").append(violations.size())
                .append(violations.size() == 1 ? " violation: " : " violations: ");
        for (int i = 0; i < violations.size(); i++) {
            b.append(i == 0 ? "" : "; ").append(violations.get(i));
        }
        return new Refused(ErrorCode.INVALID_SCHEMA, b.toString());
    }

    /**
     * The first half of {@link #decide}, cheap enough to ask before a registration waits in its
     * subject's queue: the contract merged, the content looked up, and the version the schema already
     * is (a producer registering at start-up). No compatibility check runs.
     */
    public static Lookup lookup(DecisionReads reads, RegistryView view, Subject subject, SubjectSettings settings,
                                ParsedSchema<?> parsed, RegisterRequest req) {
        DataContract contract;
        try {
            contract = DataContract.forRegistration(reads, view, subject, settings.fields(), req);
        } catch (RegistryException e) { // the merged rule set breaks the rules for rule sets
            return new Lookup(null, null, Optional.empty(), view.revision(subject), settings, Optional.empty(),
                    new Refused(e.error(), e.getMessage()));
        }
        Fingerprint fingerprint = contract.fingerprint(parsed);
        Optional<SchemaId> existing = reads.idForFingerprint(subject.context(), fingerprint);
        return new Lookup(contract, fingerprint, existing, view.revision(subject), settings,
                known(reads, view, subject, settings, parsed, req, contract, existing), null);
    }

    private static Optional<Known> known(DecisionReads reads, RegistryView view, Subject subject,
                                         SubjectSettings settings, ParsedSchema<?> parsed, RegisterRequest req,
                                         DataContract contract, Optional<SchemaId> existing) {
        if (existing.isPresent()) {
            Optional<Version> live = view.usages().liveVersionWithId(subject, existing.get());
            if (live.isPresent()) {
                return Optional.of(new Known(existing.get(), live.get(), contract, view.position().offset()));
            }
        }
        if (DataContract.asksForNone(req) && !settings.fields().mergesContracts()) {
            return storedWithAContract(reads, view, subject, parsed);
        }
        return Optional.empty();
    }

    /**
     * A live version of the subject holding this schema with a contract, newest first. Only subjects
     * whose latest live version has a contract are searched: elsewhere the plain fingerprint already
     * found it.
     */
    private static Optional<Known> storedWithAContract(DecisionReads reads, RegistryView view, Subject subject,
                                                       ParsedSchema<?> parsed) {
        DataContract latest = DataContract.latestStored(reads, view, subject);
        if (latest == null || latest.isNone()) {
            return Optional.empty();
        }
        List<VersionRecord> all = view.versions(subject);
        for (int i = all.size() - 1; i >= 0; i--) {
            VersionRecord v = all.get(i);
            StoredSchema s = view.schemaOf(subject, v).orElseThrow();
            if (!v.deleted() && Fingerprints.of(s.schemaType(), s.schema(), s.references()).equals(parsed.fingerprint())) {
                return Optional.of(new Known(v.schemaId(), v.version(), new DataContract(s.metadata(), s.ruleSet()),
                        view.position().offset()));
            }
        }
        return Optional.empty();
    }
}
