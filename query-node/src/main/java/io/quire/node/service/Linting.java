package io.quire.node.service;

import io.quire.client.RegisterRequest;
import io.quire.journal.model.Context;
import io.quire.journal.model.LintConfig;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.Subject;
import io.quire.journal.view.RegistryView;
import io.quire.node.lint.Lint;
import io.quire.node.lint.LintRule;
import io.quire.node.lint.Violation;
import io.quire.node.schema.ParsedSchema;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /lint}: a schema linted without registering it, and without a subject if need be,
 * under the lint config the request gives, else the subject's ({@code ?subject=}), else the
 * registry's, else the STANDARD profile.
 */
public final class Linting {

    /** The verdict: what was broken, and which rules ran. */
    public record Verdict(boolean refused, List<Violation> violations, List<String> rules) {
    }

    private final ViewAccess access;
    private final SchemaParsing parsing;
    private final WritePath path;

    Linting(ViewAccess access, SchemaParsing parsing, WritePath path) {
        this.access = access;
        this.parsing = parsing;
        this.path = path;
    }

    public CompletableFuture<Verdict> lint(RegisterRequest req, LintConfig asked, Subject subject) {
        return path.work(() -> {
            RegistryView view = access.view();
            LintConfig config = asked != null ? asked : subject != null ? view.config().effectiveFields(subject).lint()
                    : view.config().globalFields().lint();
            Lint.Settings settings = SettingsWrites.validLint(config != null ? config
                    : new LintConfig("STANDARD", null, null, null, null, null, null));
            Context context = subject == null ? Context.DEFAULT : subject.context();
            ParsedSchema<?> parsed = parsing.parse(view, context, WritePath.schemaType(req.schemaType()), req.schema(),
                    req.referencesOrEmpty());
            Metadata metadata = req.metadata();
            List<Violation> violations = Lint.check(parsed, req.schema(), metadata, settings);
            return new Verdict(!violations.isEmpty() && !settings.warns(), violations, settings.rules().stream()
                    .filter(r -> r.language == null || r.language == parsed.type()).map(LintRule::name).toList());
        });
    }
}
