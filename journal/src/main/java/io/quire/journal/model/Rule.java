package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One rule of a data contract, with every field Confluent's clients read. The registry stores and
 * returns it; the client runs it (CEL, CEL_FIELD, JSONata, ENCRYPT, …). A missing kind is
 * TRANSFORM and a missing mode WRITEREAD, as Confluent fills them in. Tags and params are kept
 * sorted, so equal rules encode the same.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "doc", "kind", "mode", "type", "tags", "params", "expr", "onSuccess", "onFailure",
    "disabled"})
public record Rule(String name, String doc, RuleKind kind, RuleMode mode, String type, Set<String> tags,
                   Map<String, String> params, String expr, String onSuccess, String onFailure,
                   boolean disabled) {

    public static final int NAME_MAX_LENGTH = 64;

    public Rule {
        kind = kind == null ? RuleKind.TRANSFORM : kind;
        mode = mode == null ? RuleMode.WRITEREAD : mode;
        tags = Collections.unmodifiableSortedSet(tags == null ? new TreeSet<>() : new TreeSet<>(tags));
        params = Collections.unmodifiableSortedMap(params == null ? new TreeMap<>() : new TreeMap<>(params));
    }

    /** Why this rule is not valid (Confluent's checks and words), or null when it is. */
    public String problem() {
        if (name == null) {
            return "Missing rule name";
        }
        if (name.isEmpty()) {
            return "Empty rule name";
        }
        if (name.length() > NAME_MAX_LENGTH) {
            return "Rule name too long";
        }
        if (!(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_')) {
            return "Illegal initial character in rule name: " + name;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
                return "Illegal character in rule name: " + name;
            }
        }
        if (type == null) {
            return "Missing rule type";
        }
        if (!mode.hasTwoDirections() && (hasPair(onSuccess) || hasPair(onFailure))) {
            return "Multiple actions only valid with WRITEREAD and UPDOWN";
        }
        return null;
    }

    private static boolean hasPair(String action) {
        return action != null && action.indexOf(',') >= 0;
    }
}
