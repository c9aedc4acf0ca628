package io.quire.journal.apply;

import io.quire.journal.command.ControlExporter;
import io.quire.journal.command.DeleteExporter;
import io.quire.journal.command.ExporterProgress;
import io.quire.journal.command.PutExporter;
import io.quire.journal.command.TakeLease;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Exporter;
import io.quire.journal.model.Offset;
import io.quire.journal.model.TaskLease;
import io.quire.journal.outcome.ExporterChanged;
import io.quire.journal.outcome.LeaseTaken;
import io.quire.journal.outcome.Outcome;
import io.quire.journal.outcome.Rejected;
import io.quire.journal.view.ExporterReads;
import io.quire.journal.view.LeaseReads;
import io.quire.journal.view.RegistryView;
import io.quire.journal.view.ViewWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Exporters, Confluent's {@code /exporters}: their definitions, pause/resume/reset, and the lease
 * that lets exactly one node run each. The lease is decided here, in journal order, with the
 * record's own time: a node's claim wins when the lease is free, expired or already its own.
 */
final class ExportRules {

    private static final Set<String> CONTEXT_TYPES = Set.of(Exporter.AUTO, Exporter.CUSTOM, Exporter.NONE);

    private ExportRules() {
    }

    static Outcome put(RegistryView view, ViewWriter out, long timestamp, PutExporter c) {
        if (!Exporter.isValidName(c.name())) {
            return Rejected.of(ErrorCode.INVALID_EXPORTER_NAME, String.valueOf(c.name()));
        }
        Optional<Exporter> now = ExporterReads.exporter(view, c.name());
        if (c.create() && now.isPresent()) {
            return Rejected.of(ErrorCode.EXPORTER_EXISTS, c.name());
        }
        if (!c.create() && now.isEmpty()) {
            return Rejected.of(ErrorCode.EXPORTER_NOT_FOUND, c.name());
        }
        if (!c.create() && !now.get().paused()) {
            return Rejected.of(ErrorCode.EXPORTER_NOT_PAUSED, c.name());
        }
        Exporter base = now.orElse(null);
        String contextType = c.contextType() != null ? c.contextType().toUpperCase(java.util.Locale.ROOT)
                : base == null ? Exporter.AUTO : base.contextType();
        if (!CONTEXT_TYPES.contains(contextType)) {
            return Rejected.of(ErrorCode.INVALID_EXPORTER_CONFIG, "contextType must be AUTO, CUSTOM or NONE");
        }
        String context = c.context() != null ? c.context() : base == null ? null : base.context();
        if (Exporter.CUSTOM.equals(contextType) && (context == null || context.isBlank())) {
            return Rejected.of(ErrorCode.INVALID_EXPORTER_CONFIG, "contextType CUSTOM needs a context");
        }
        List<String> subjects = c.subjects() != null ? c.subjects() : base == null ? null : base.subjects();
        if (subjects != null && subjects.stream().anyMatch(s -> s == null || s.isEmpty())) {
            return Rejected.of(ErrorCode.INVALID_EXPORTER_SUBJECTS, "an empty subject name");
        }
        java.util.Map<String, String> config = c.config() != null ? c.config() : base == null ? null : base.config();
        String url = config == null ? null : config.get("schema.registry.url");
        if (url == null || url.isBlank()) {
            return Rejected.of(ErrorCode.INVALID_EXPORTER_CONFIG, "schema.registry.url is required");
        }
        String rename = c.subjectRenameFormat() != null ? c.subjectRenameFormat()
                : base == null ? null : base.subjectRenameFormat();
        Exporter e = base == null
                ? new Exporter(c.name(), contextType, context, subjects, rename, config, false, Offset.NONE, null, 0,
                null, 0, timestamp)
                : new Exporter(c.name(), contextType, context, subjects, rename, config, base.paused(), base.offset(),
                base.runner(), base.leaseUntil(), base.trace(), base.generation(), timestamp);
        out.exporter(e);
        return new ExporterChanged(c.name());
    }

    static Outcome delete(RegistryView view, ViewWriter out, DeleteExporter c) {
        if (ExporterReads.exporter(view, c.name()).isEmpty()) {
            return Rejected.of(ErrorCode.EXPORTER_NOT_FOUND, c.name());
        }
        out.deleteExporter(c.name());
        return new ExporterChanged(c.name());
    }

    static Outcome control(RegistryView view, ViewWriter out, long timestamp, ControlExporter c) {
        Optional<Exporter> now = ExporterReads.exporter(view, c.name());
        if (now.isEmpty()) {
            return Rejected.of(ErrorCode.EXPORTER_NOT_FOUND, c.name());
        }
        Exporter e = now.get();
        Exporter next;
        switch (c.action()) {
            case ControlExporter.PAUSE -> {
                if (e.paused()) {
                    return Rejected.of(ErrorCode.EXPORTER_NOT_RUNNING, c.name());
                }
                next = e.withRun(true, e.offset(), null, 0, e.trace(), e.generation(), timestamp);
            }
            case ControlExporter.RESUME -> {
                if (!e.paused()) {
                    return Rejected.of(ErrorCode.EXPORTER_RUNNING, c.name());
                }
                next = e.withRun(false, e.offset(), null, 0, null, e.generation(), timestamp);
            }
            case ControlExporter.RESET -> {
                if (!e.paused()) {
                    return Rejected.of(ErrorCode.EXPORTER_NOT_PAUSED, c.name());
                }
                next = e.withRun(true, Offset.NONE, null, 0, null, e.generation() + 1, timestamp);
            }
            default -> {
                return Rejected.of(ErrorCode.UNPROCESSABLE, "unknown exporter action " + c.action());
            }
        }
        out.exporter(next);
        return new ExporterChanged(c.name());
    }

    static Outcome progress(RegistryView view, ViewWriter out, long timestamp, ExporterProgress c) {
        Optional<Exporter> now = ExporterReads.exporter(view, c.name());
        if (now.isEmpty()) {
            return Rejected.of(ErrorCode.EXPORTER_NOT_FOUND, c.name());
        }
        Exporter e = now.get();
        if (e.paused() || e.generation() != c.generation()) {
            return Rules.notPermitted("exporter " + c.name() + " was paused or reset: generation " + e.generation());
        }
        boolean free = TaskLease.free(e.runner(), e.leaseUntil(), c.node(), timestamp);
        if (!free) {
            return Rules.notPermitted("exporter " + c.name() + " runs on " + e.runner() + " until " + e.leaseUntil());
        }
        if (c.offset() != null && e.offset().isAfter(c.offset()) && e.runner() != null && e.runner().equals(c.node())) {
            return Rules.notPermitted("exporter " + c.name() + " is at " + e.offset() + ", not back at " + c.offset());
        }
        Offset offset = c.offset() == null ? e.offset() : c.offset();
        boolean release = c.leaseMillis() <= 0;
        out.exporter(e.withRun(false, offset, release ? null : c.node(), release ? 0 : timestamp + c.leaseMillis(),
                c.trace(), e.generation(), timestamp));
        return new ExporterChanged(c.name());
    }

    /** A task's lease, under the exporters' rule: granted when free, expired or the node's own. */
    static Outcome takeLease(RegistryView view, ViewWriter out, long timestamp, TakeLease c) {
        if (c.name() == null || c.name().isBlank() || c.node() == null || c.node().isBlank() || c.leaseMillis() < 0) {
            return Rejected.of(ErrorCode.UNPROCESSABLE, "a lease needs a task name, a node and a duration");
        }
        TaskLease now = LeaseReads.lease(view, c.name()).orElse(new TaskLease(c.name(), null, 0));
        if (!now.freeFor(c.node(), timestamp)) {
            return Rules.notPermitted("task " + c.name() + " runs on " + now.holder() + " until " + now.until());
        }
        boolean release = c.leaseMillis() == 0;
        if (release && now.holder() == null) {
            return new LeaseTaken(c.name(), null, 0);
        }
        TaskLease next = release ? new TaskLease(c.name(), null, 0) : new TaskLease(c.name(), c.node(),
                timestamp + c.leaseMillis());
        out.lease(next);
        return new LeaseTaken(c.name(), next.holder(), next.until());
    }
}
