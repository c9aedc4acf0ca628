package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collection;
import java.util.List;

/**
 * The config fields beside the compatibility level and the normalize flag, with Confluent's names:
 * the data contract defaults and overrides merged into every registration, the compatibility group
 * (the metadata property whose value splits a subject's versions into groups checked apart),
 * {@code validateFields}, {@code validateRules} and {@code alias}. A null field is not set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ConfigFields(String alias, Boolean validateFields, Boolean validateRules, String compatibilityGroup,
                           Metadata defaultMetadata, Metadata overrideMetadata, RuleSet defaultRuleSet,
                           RuleSet overrideRuleSet, LintConfig lint) {

    public static final ConfigFields NONE = new ConfigFields(null, null, null, null, null, null, null, null, null);

    /** The wire names of the fields, as a PUT names the ones it clears. */
    public static final List<String> NAMES = List.of("alias", "validateFields", "validateRules", "compatibilityGroup",
            "defaultMetadata", "overrideMetadata", "defaultRuleSet", "overrideRuleSet", "lint");

    /** Confluent's fields, without lint (a Quire field). */
    public ConfigFields(String alias, Boolean validateFields, Boolean validateRules, String compatibilityGroup,
                        Metadata defaultMetadata, Metadata overrideMetadata, RuleSet defaultRuleSet,
                        RuleSet overrideRuleSet) {
        this(alias, validateFields, validateRules, compatibilityGroup, defaultMetadata, overrideMetadata,
                defaultRuleSet, overrideRuleSet, null);
    }

    /** Whether registrations get a default or an override merged into their contract. */
    @JsonIgnore
    public boolean mergesContracts() {
        return defaultMetadata != null || overrideMetadata != null || defaultRuleSet != null || overrideRuleSet != null;
    }

    @JsonIgnore
    public boolean isNone() {
        return equals(NONE);
    }

    /** The field of that wire name (one of {@link #NAMES}); null when it is not set. */
    public Object get(String name) {
        return switch (name) {
            case "alias" -> alias;
            case "validateFields" -> validateFields;
            case "validateRules" -> validateRules;
            case "compatibilityGroup" -> compatibilityGroup;
            case "defaultMetadata" -> defaultMetadata;
            case "overrideMetadata" -> overrideMetadata;
            case "defaultRuleSet" -> defaultRuleSet;
            case "overrideRuleSet" -> overrideRuleSet;
            case "lint" -> lint;
            default -> throw new IllegalArgumentException("no config field " + name);
        };
    }

    /** These fields with {@code changes} laid over them and the {@code cleared} ones removed. */
    public ConfigFields update(ConfigFields changes, Collection<String> cleared) {
        ConfigFields c = changes == null ? NONE : changes;
        return new ConfigFields(
                pick(c.alias, alias, cleared, "alias"),
                pick(c.validateFields, validateFields, cleared, "validateFields"),
                pick(c.validateRules, validateRules, cleared, "validateRules"),
                pick(c.compatibilityGroup, compatibilityGroup, cleared, "compatibilityGroup"),
                pick(c.defaultMetadata, defaultMetadata, cleared, "defaultMetadata"),
                pick(c.overrideMetadata, overrideMetadata, cleared, "overrideMetadata"),
                pick(c.defaultRuleSet, defaultRuleSet, cleared, "defaultRuleSet"),
                pick(c.overrideRuleSet, overrideRuleSet, cleared, "overrideRuleSet"),
                pick(c.lint, lint, cleared, "lint"));
    }

    /** These (a subject's) fields, each falling back to {@code global}'s when not set here. */
    public ConfigFields orElse(ConfigFields global) {
        return new ConfigFields(
                alias != null ? alias : global.alias,
                validateFields != null ? validateFields : global.validateFields,
                validateRules != null ? validateRules : global.validateRules,
                compatibilityGroup != null ? compatibilityGroup : global.compatibilityGroup,
                defaultMetadata != null ? defaultMetadata : global.defaultMetadata,
                overrideMetadata != null ? overrideMetadata : global.overrideMetadata,
                defaultRuleSet != null ? defaultRuleSet : global.defaultRuleSet,
                overrideRuleSet != null ? overrideRuleSet : global.overrideRuleSet,
                lint != null ? lint : global.lint);
    }

    private static <T> T pick(T changed, T current, Collection<String> cleared, String name) {
        if (changed != null) {
            return changed;
        }
        return cleared != null && cleared.contains(name) ? null : current;
    }
}
