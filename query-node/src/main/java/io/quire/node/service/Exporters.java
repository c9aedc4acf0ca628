package io.quire.node.service;

import io.quire.journal.command.Command;
import io.quire.journal.command.ControlExporter;
import io.quire.journal.command.DeleteExporter;
import io.quire.journal.command.PutExporter;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Exporter;
import io.quire.journal.model.Principal;
import io.quire.journal.outcome.ExporterChanged;
import io.quire.journal.view.ExporterReads;
import io.quire.node.api.AdminAnswers.ExporterInfo;
import io.quire.node.api.AdminAnswers.ExporterStatus;
import io.quire.node.api.Written;
import io.quire.node.error.RegistryException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * {@code /exporters}: Confluent's exporters API. Definitions and pause/resume/reset are journal
 * commands like any write (the applier decides them, so every node agrees); reads come from the
 * view. Which node runs an exporter is its lease in the journal ({@code export.ExportSupervisor}).
 */
public final class Exporters {

    /** A create or update body, as Confluent names its fields; null fields keep what the exporter has. */
    public record Body(String name, String contextType, String context, List<String> subjects,
                       String subjectRenameFormat, Map<String, String> config) {
    }

    private final ViewAccess access;
    private final WritePath path;

    Exporters(ViewAccess access, WritePath path) {
        this.access = access;
        this.path = path;
    }

    public List<String> names() {
        return ExporterReads.exporters(access.view()).stream().map(Exporter::name).toList();
    }

    public Exporter get(String name) {
        return ExporterReads.exporter(access.view(), name)
                .orElseThrow(() -> RegistryException.of(ErrorCode.EXPORTER_NOT_FOUND, name));
    }

    /** Confluent's description: name, subjects, contextType, context, subjectRenameFormat, config. */
    public ExporterInfo info(String name) {
        Exporter e = get(name);
        return new ExporterInfo(e.name(), e.subjects(), e.contextType(), e.context(), e.subjectRenameFormat(),
                e.config());
    }

    /**
     * Confluent's status (name, state, offset, ts, trace) and how many journal records it is behind.
     * STARTING: running but no node holds its lease yet; ERROR: its last batch failed.
     */
    public ExporterStatus status(String name, long now) {
        Exporter e = get(name);
        String state = e.paused() ? "PAUSED" : e.trace() != null ? "ERROR"
                : e.runner() != null && e.leaseUntil() > now ? "RUNNING" : "STARTING";
        long at = access.view().position().offset().value();
        return new ExporterStatus(e.name(), state, e.offset(), e.ts(), e.trace(), Math.max(0, at - e.offset().value()),
                e.runner());
    }

    public CompletableFuture<Written<String>> create(Body b, Principal principal) {
        if (b == null || b.name() == null || b.name().isEmpty()) {
            throw RegistryException.of(ErrorCode.INVALID_EXPORTER_NAME, "name is required");
        }
        return submit(new PutExporter(b.name(), true, b.contextType(), b.context(), b.subjects(),
                b.subjectRenameFormat(), b.config()), principal);
    }

    public CompletableFuture<Written<String>> update(String name, Body b, Principal principal) {
        return submit(new PutExporter(name, false, b.contextType(), b.context(), b.subjects(),
                b.subjectRenameFormat(), b.config()), principal);
    }

    public CompletableFuture<Written<String>> updateConfig(String name, Map<String, String> config, Principal principal) {
        if (config == null) {
            throw RegistryException.of(ErrorCode.INVALID_EXPORTER_CONFIG, "config is required");
        }
        Map<String, String> merged = new TreeMap<>(get(name).config());
        merged.putAll(config);
        return submit(new PutExporter(name, false, null, null, null, null, merged), principal);
    }

    public CompletableFuture<Written<String>> control(String name, String action, Principal principal) {
        return submit(new ControlExporter(name, action), principal);
    }

    public CompletableFuture<Written<String>> delete(String name, Principal principal) {
        return submit(new DeleteExporter(name), principal);
    }

    private CompletableFuture<Written<String>> submit(Command c, Principal principal) {
        return path.submit(c, principal, ExporterChanged.class, ExporterChanged::name);
    }
}
