package io.quire.journal.outcome;

/** Stable wire names of the outcome types. */
public enum OutcomeType {
    SCHEMA_REGISTERED("SchemaRegistered", SchemaRegistered.class, true),
    SUBJECT_DELETED("SubjectDeleted", SubjectDeleted.class, true),
    VERSION_DELETED("VersionDeleted", VersionDeleted.class, true),
    CONFIG_SET("ConfigSet", ConfigSet.class, true),
    CONFIG_DELETED("ConfigDeleted", ConfigDeleted.class, true),
    MODE_SET("ModeSet", ModeSet.class, true),
    MODE_DELETED("ModeDeleted", ModeDeleted.class, true),
    BLOCK_GRANTED("BlockGranted", BlockGranted.class, true),
    ASSOCIATIONS_SET("AssociationsSet", AssociationsSet.class, true),
    ASSOCIATIONS_DELETED("AssociationsDeleted", AssociationsDeleted.class, true),
    CONTEXT_DELETED("ContextDeleted", ContextDeleted.class, true),
    KEK_STORED("KekStored", KekStored.class, true),
    DEK_STORED("DekStored", DekStored.class, true),
    KEYS_CHANGED("KeysChanged", KeysChanged.class, true),
    FOLLOW_SET("FollowSet", FollowSet.class, true),
    EXPORTER_CHANGED("ExporterChanged", ExporterChanged.class, true),
    PROMOTED("Promoted", Promoted.class, true),
    CHANGE_SET_APPLIED("ChangeSetApplied", ChangeSetApplied.class, true),
    LEASE_TAKEN("LeaseTaken", LeaseTaken.class, true),
    VERSIONS_REGISTERED("VersionsRegistered", VersionsRegistered.class, true),
    REJECTED("Rejected", Rejected.class, false),
    CONFLICT("Conflict", Conflict.class, false);

    public final String wireName;
    public final Class<? extends Outcome> javaType;
    public final boolean accepted;

    OutcomeType(String wireName, Class<? extends Outcome> javaType, boolean accepted) {
        this.wireName = wireName;
        this.javaType = javaType;
        this.accepted = accepted;
    }

    public static OutcomeType fromWireName(String name) {
        for (OutcomeType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown outcome type '" + name + "'");
    }
}
