package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.CompatibilityChecker;
import io.quire.node.schema.ParsedSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a registration (outside IMPORT mode) comes to against one view of the registry: the version
 * it already is, a refusal, or the command to journal. A pure function of the view and the parsed
 * request: no journal, no clock, no id lease (a new schema's id is leased after, by the caller). The
 * applier re-checks the same things with the same view reads ({@code liveVersionWithId}, the level
 * and the subject's revision the command carries) and refuses what changed in between.
 */
public final class RegistrationDecision {

    /** The decision: {@link Known} or {@link Proposed}; a refusal is thrown as the client will see it. */
    public sealed interface Decision permits Known, Proposed {
    }

    /** The content is a live version of the subject already: nothing to write. */
    public record Known(SchemaId id, Version version, DataContract contract, Offset at) implements Decision {
    }

    /**
     * A new version to journal: under {@code existingId} when the content is stored in the context
     * already, else under an id the caller leases; checked at {@code level} against the subject
     * as of {@code revision}.
     */
    public record Proposed(Subject subject, ParsedSchema<?> parsed, Fingerprint fingerprint, Optional<SchemaId> existingId,
                           CompatibilityLevel level, Offset revision, DataContract contract) implements Decision {

        /** The command, with the id the version takes. */
        public RegisterSchema command(SchemaId id) {
            return new RegisterSchema(subject, parsed.type(), parsed.canonical(), parsed.references(), fingerprint, id,
                    level, revision, contract.metadata(), contract.ruleSet());
        }
    }

    private RegistrationDecision() {
    }

    /**
     * Decides a registration of {@code parsed} under {@code subject} as the request asks (its data
     * contract merged with the subject's); throws the refusal (409 with the compatibility problems).
     */
    public static Decision decide(SchemaParsing parsing, RegistryView view, Subject subject, ParsedSchema<?> parsed,
                                  RegisterRequest req) {
        DataContract contract = DataContract.forRegistration(parsing, view, subject, req);
        Fingerprint fingerprint = contract.fingerprint(parsed);
        Optional<SchemaId> existing = parsing.idForFingerprint(view, subject.context(), fingerprint);
        if (existing.isPresent()) {
            Optional<Version> live = view.liveVersionWithId(subject, existing.get());
            if (live.isPresent()) {
                return new Known(existing.get(), live.get(), contract, view.position().offset());
            }
        }
        CompatibilityLevel level = view.effectiveLevel(subject);
        List<String> problems = new ArrayList<>(ReservedFields.problems(view, parsing.support(parsed.type()), subject,
                parsed, contract));
        problems.addAll(CompatibilityChecker.check(parsing.support(parsed.type()), level, parsed,
                CompatibilityChecks.earlier(parsing, view, subject, level, contract)));
        if (!problems.isEmpty()) {
            throw RegistryException.of(ErrorCode.INCOMPATIBLE_SCHEMA, subject, problems);
        }
        return new Proposed(subject, parsed, fingerprint, existing, level, view.revision(subject), contract);
    }
}
