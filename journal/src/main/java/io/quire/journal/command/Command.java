package io.quire.journal.command;

import io.quire.journal.model.Subject;

/**
 * A request to change the registry, as it travels through the journal. Every field the applier
 * needs is inside the command (rule 1 of the design): the edge did the expensive work already.
 */
public sealed interface Command
        permits RegisterSchema, DeleteSubject, DeleteVersion, SetConfig, DeleteConfig, SetMode, DeleteMode,
        LeaseIdBlock, ImportSchema, SetAssociations, DeleteAssociations, DeleteContext, CreateKek, UpdateKek,
        DeleteKek, UndeleteKek, CreateDek, DeleteDek, UndeleteDek, SetFollow, PutExporter, DeleteExporter,
        ControlExporter, ExporterProgress, Promote, ApplyChangeSet, TakeLease,
        RegisterVersions, ImportSchemas {

    /** This command's type, which carries its stable wire name. */
    CommandType type();

    /** The subject the command acts on; null for global settings and id leases. */
    Subject subject();
}
