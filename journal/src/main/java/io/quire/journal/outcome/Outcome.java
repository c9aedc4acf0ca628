package io.quire.journal.outcome;

/**
 * What applying one command did. Every command gets one, a rejection included: rejections are
 * values, never exceptions. Outcomes are part of the replica digest, so they must be deterministic.
 */
public sealed interface Outcome
        permits SchemaRegistered, SubjectDeleted, VersionDeleted, ConfigSet, ConfigDeleted, ModeSet, ModeDeleted,
        BlockGranted, AssociationsSet, AssociationsDeleted, ContextDeleted, KekStored, DekStored, KeysChanged,
        FollowSet, ExporterChanged, Promoted, ChangeSetApplied, LeaseTaken, VersionsRegistered, Rejected,
        Conflict {

    OutcomeType type();

    default boolean accepted() {
        return type().accepted;
    }
}
