package io.quire.journal.model;

/** What a rule does with a record: changes it (TRANSFORM) or accepts or refuses it (CONDITION). */
public enum RuleKind {
    TRANSFORM, CONDITION
}
