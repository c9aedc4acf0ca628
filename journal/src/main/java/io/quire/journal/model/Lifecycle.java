package io.quire.journal.model;

/**
 * How an association ties a subject to its resource: STRONG (the subject belongs to the resource:
 * one such association per subject, and the subject cannot be deleted while it holds) or WEAK
 * (the subject is only used by it). STRONG by default, as Confluent's clients send it.
 */
public enum Lifecycle {
    STRONG, WEAK
}
