package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.ConfigFields;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import io.quire.journal.view.RegistryView;
import io.quire.node.error.RegistryException;
import io.quire.node.schema.Fingerprints;
import io.quire.node.schema.ParsedSchema;
import java.util.Map;

/**
 * The data contract a schema is stored with: its metadata and rule set, either may be absent. The
 * registry keeps and returns them; clients run the rules.
 */
record DataContract(Metadata metadata, RuleSet ruleSet) {

    static final DataContract NONE = new DataContract(null, null);

    /**
     * What a registration stores, merged in Confluent's order: the config's default, then the
     * request's own metadata and rule set (each inherited from the subject's latest live version
     * when the request leaves it out), then the config's override; each layer wins over the one
     * before, property by property and rule by rule name.
     */
    static DataContract forRegistration(DecisionReads reads, RegistryView view, Subject subject, ConfigFields config,
                                        RegisterRequest req) {
        DataContract previous = latestStored(reads, view, subject);
        Metadata metadata = req.metadata() != null ? req.metadata() : previous == null ? null : previous.metadata();
        RuleSet ruleSet = req.ruleSet() != null ? req.ruleSet() : previous == null ? null : previous.ruleSet();
        Metadata merged = Metadata.merge(Metadata.merge(config.defaultMetadata(), metadata), config.overrideMetadata());
        if (merged != null && merged.properties().containsKey(CONFLUENT_VERSION)) {
            // Confluent keeps this property equal to the version the registration creates.
            Version next = view.subject(subject).map(r -> r.latestVersion().next()).orElse(Version.of(1));
            merged = Metadata.merge(merged, Metadata.of(null, Map.of(CONFLUENT_VERSION, next.toString()), null));
        }
        return new DataContract(merged,
                RuleSet.merge(RuleSet.merge(config.defaultRuleSet(), ruleSet), config.overrideRuleSet())).valid();
    }

    /** The contract the subject's latest live version stores (neither part when none), or null without one. */
    static DataContract latestStored(DecisionReads reads, RegistryView view, Subject subject) {
        return view.latestLive(subject).map(v -> reads.storedContract(subject.context(), v.schemaId()))
                .orElse(null);
    }

    /** The metadata property Confluent sets to the version number of the registration. */
    static final String CONFLUENT_VERSION = "confluent:version";

    /** The value of the compatibility group's property in this contract's metadata (null: none). */
    String groupValue(String group) {
        return metadata == null ? null : metadata.properties().get(group);
    }

    /** Whether a registration gives neither metadata nor a rule set. */
    static boolean asksForNone(RegisterRequest req) {
        return req.metadata() == null && req.ruleSet() == null;
    }

    /** What an import stores: the contract as the other registry had it, never inherited. */
    static DataContract forImport(RegisterRequest req) {
        return new DataContract(req.metadata(), req.ruleSet()).valid();
    }

    boolean isNone() {
        return metadata == null && ruleSet == null;
    }

    /** The content identity of {@code parsed} under this contract (its own fingerprint when there is none). */
    Fingerprint fingerprint(ParsedSchema<?> parsed) {
        return Fingerprints.withContract(parsed.fingerprint(), metadata, ruleSet);
    }

    /** This contract, or 42210 with Confluent's words when its rule set breaks the rules for rule sets. */
    private DataContract valid() {
        validRules(ruleSet);
        return this;
    }

    /** 42210 with Confluent's words when a rule set breaks the rules for rule sets; nothing when it is valid or absent. */
    static void validRules(RuleSet ruleSet) {
        String problem = ruleSet == null ? null : ruleSet.problem();
        if (problem != null) {
            throw RegistryException.of(ErrorCode.INVALID_RULESET, problem);
        }
    }
}
