package io.quire.journal.command;

/** Stable wire names of the command types. Never rename one: old journal records carry them. */
public enum CommandType {
    REGISTER_SCHEMA("RegisterSchema", RegisterSchema.class),
    DELETE_SUBJECT("DeleteSubject", DeleteSubject.class),
    DELETE_VERSION("DeleteVersion", DeleteVersion.class),
    SET_CONFIG("SetConfig", SetConfig.class),
    DELETE_CONFIG("DeleteConfig", DeleteConfig.class),
    SET_MODE("SetMode", SetMode.class),
    DELETE_MODE("DeleteMode", DeleteMode.class),
    LEASE_ID_BLOCK("LeaseIdBlock", LeaseIdBlock.class),
    IMPORT_SCHEMA("ImportSchema", ImportSchema.class),
    SET_ASSOCIATIONS("SetAssociations", SetAssociations.class),
    DELETE_ASSOCIATIONS("DeleteAssociations", DeleteAssociations.class),
    DELETE_CONTEXT("DeleteContext", DeleteContext.class),
    CREATE_KEK("CreateKek", CreateKek.class),
    UPDATE_KEK("UpdateKek", UpdateKek.class),
    DELETE_KEK("DeleteKek", DeleteKek.class),
    UNDELETE_KEK("UndeleteKek", UndeleteKek.class),
    CREATE_DEK("CreateDek", CreateDek.class),
    DELETE_DEK("DeleteDek", DeleteDek.class),
    UNDELETE_DEK("UndeleteDek", UndeleteDek.class),
    SET_FOLLOW("SetFollow", SetFollow.class),
    PUT_EXPORTER("PutExporter", PutExporter.class),
    DELETE_EXPORTER("DeleteExporter", DeleteExporter.class),
    CONTROL_EXPORTER("ControlExporter", ControlExporter.class),
    EXPORTER_PROGRESS("ExporterProgress", ExporterProgress.class),
    PROMOTE("Promote", Promote.class),
    APPLY_CHANGE_SET("ApplyChangeSet", ApplyChangeSet.class),
    TAKE_LEASE("TakeLease", TakeLease.class),
    REGISTER_VERSIONS("RegisterVersions", RegisterVersions.class),
    IMPORT_SCHEMAS("ImportSchemas", ImportSchemas.class);

    public final String wireName;
    public final Class<? extends Command> javaType;

    CommandType(String wireName, Class<? extends Command> javaType) {
        this.wireName = wireName;
        this.javaType = javaType;
    }

    public static CommandType fromWireName(String name) {
        for (CommandType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown command type '" + name + "'");
    }
}
