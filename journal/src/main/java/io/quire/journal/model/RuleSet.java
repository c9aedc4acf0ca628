package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of a data contract: migration rules (between major versions), domain rules (on every
 * record) and encoding rules (on the serialized bytes), each list in the order given. Empty lists
 * are left out of the JSON.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"migrationRules", "domainRules", "encodingRules"})
public record RuleSet(List<Rule> migrationRules, List<Rule> domainRules, List<Rule> encodingRules) {

    public RuleSet {
        migrationRules = migrationRules == null ? List.of() : List.copyOf(migrationRules);
        domainRules = domainRules == null ? List.of() : List.copyOf(domainRules);
        encodingRules = encodingRules == null ? List.of() : List.copyOf(encodingRules);
    }

    /** Why this rule set is not valid (Confluent's checks and words, its 42210), or null when it is. */
    public String problem() {
        Set<String> names = new HashSet<>();
        String p = check(migrationRules, names, true, "Migration rules can only be UPGRADE, DOWNGRADE, UPDOWN");
        if (p == null) {
            p = check(domainRules, names, false, "Domain rules can only be WRITE, READ, WRITEREAD");
        }
        if (p == null) {
            p = check(encodingRules, names, false, "Encoding rules can only be WRITE, READ, WRITEREAD");
        }
        return p;
    }

    private static String check(List<Rule> rules, Set<String> names, boolean migration, String wrongMode) {
        for (Rule r : rules) {
            if (r == null) {
                return "Missing rule";
            }
            if (r.name() != null && !names.add(r.name())) {
                return "Found rule with duplicate name '" + r.name() + "'";
            }
            String p = r.problem();
            if (p != null) {
                return p;
            }
            if (r.mode().isMigration() != migration) {
                return wrongMode;
            }
        }
        return null;
    }

    /**
     * {@code newer} laid over {@code older} list by list: a newer rule replaces the older one of the
     * same name, the others are kept before the newer ones, as Confluent merges rule sets. Either
     * may be null (absent).
     */
    public static RuleSet merge(RuleSet older, RuleSet newer) {
        if (older == null) {
            return newer;
        }
        if (newer == null) {
            return older;
        }
        return new RuleSet(merge(older.migrationRules, newer.migrationRules),
                merge(older.domainRules, newer.domainRules), merge(older.encodingRules, newer.encodingRules));
    }

    private static List<Rule> merge(List<Rule> older, List<Rule> newer) {
        if (older.isEmpty()) {
            return newer;
        }
        if (newer.isEmpty()) {
            return older;
        }
        Set<String> replaced = new HashSet<>();
        newer.forEach(r -> replaced.add(r.name()));
        List<Rule> out = new ArrayList<>();
        for (Rule r : older) {
            if (!replaced.contains(r.name())) {
                out.add(r);
            }
        }
        out.addAll(newer);
        return out;
    }
}
