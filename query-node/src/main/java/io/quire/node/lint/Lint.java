package io.quire.node.lint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quire.journal.model.LintConfig;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.SchemaType;
import io.quire.node.schema.JsonSchemaSupport;
import io.quire.node.schema.ParsedSchema;
import io.quire.node.schema.ProtobufSupport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Lint at registration (docs/lint.md): the rules a subject's {@code lint} config turns on, run
 * over the schema as the client sent it (an Avro or JSON Schema document, a Protobuf file), its
 * own types only (not those of its references). A pure function of the schema, its data
 * contract's metadata and the settings: every node gives the same verdict.
 */
public final class Lint {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    /** The settings resolved: the rules that run, the PII patterns and tag, the zero-value suffix, warn or refuse. */
    public record Settings(Set<LintRule> rules, List<Pattern> pii, String piiTag, String zeroValueSuffix,
                           boolean warns) {

        public boolean none() {
            return rules.isEmpty();
        }
    }

    /** No lint. */
    public static final Settings NONE = new Settings(EnumSet.noneOf(LintRule.class), List.of(), "PII", "_UNSPECIFIED",
            false);

    private Lint() {
    }

    /**
     * The settings a config gives (null: no lint). Unknown names, profiles and bad patterns are an
     * {@link IllegalArgumentException} naming them: a config that would not run is refused when set.
     */
    public static Settings settings(LintConfig c) {
        if (c == null) {
            return NONE;
        }
        Set<LintRule> rules = EnumSet.noneOf(LintRule.class);
        Set<LintRule.Category> categories = LintRule.Category.profile(c.profileOrDefault());
        for (LintRule r : LintRule.values()) {
            if (r.category != null && categories.contains(r.category)) {
                rules.add(r);
            }
        }
        for (String name : c.use()) {
            rules.addAll(named(name));
        }
        for (String name : c.except()) {
            rules.removeAll(named(name));
        }
        if (c.action() != null && !c.action().equalsIgnoreCase("WARN") && !c.action().equalsIgnoreCase("REFUSE")) {
            throw new IllegalArgumentException("lint action " + c.action() + " is neither REFUSE nor WARN");
        }
        List<Pattern> pii = new ArrayList<>();
        for (String p : c.piiPatterns()) {
            try {
                pii.add(Pattern.compile(p, Pattern.CASE_INSENSITIVE));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("PII pattern " + p + " is not a regular expression: "
                        + e.getDescription());
            }
        }
        return new Settings(rules, List.copyOf(pii), c.piiTag() == null || c.piiTag().isBlank() ? "PII" : c.piiTag(),
                c.enumZeroValueSuffix() == null ? "_UNSPECIFIED" : c.enumZeroValueSuffix(), c.warns());
    }

    /**
     * As {@link #settings}, for a config stored already: one that no longer resolves (a rule this
     * release does not know) lints nothing rather than refuse every registration; it was checked
     * when it was set.
     */
    public static Settings settingsOrNone(LintConfig c) {
        try {
            return settings(c);
        } catch (IllegalArgumentException e) {
            return NONE;
        }
    }

    /** The rules a name in {@code use} or {@code except} stands for: a category's, or one rule. */
    private static Set<LintRule> named(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        for (LintRule.Category cat : LintRule.Category.values()) {
            if (cat.name().equals(n)) {
                Set<LintRule> out = EnumSet.noneOf(LintRule.class);
                for (LintRule r : LintRule.values()) {
                    if (r.category == cat) {
                        out.add(r);
                    }
                }
                return out;
            }
        }
        try {
            return EnumSet.of(LintRule.valueOf(n));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("no lint rule or category " + name);
        }
    }

    /**
     * The violations of {@code parsed} (sent as {@code text}) under {@code settings}; {@code metadata}
     * is its data contract's, whose tags count as the fields' own for {@link LintRule#PII_TAGGED}.
     */
    public static List<Violation> check(ParsedSchema<?> parsed, String text, Metadata metadata, Settings settings) {
        if (settings.none()) {
            return List.of();
        }
        Found found = new Found(settings, metadata);
        switch (parsed.type()) {
            case AVRO -> AvroLint.check(document(text), found);
            case JSON -> JsonLint.check(((JsonSchemaSupport.Document) parsed.parsed()).root(), found);
            case PROTOBUF -> ProtoLint.check(((ProtobufSupport.Document) parsed.parsed()).file(), found);
            default -> {
            }
        }
        return found.violations;
    }

    private static JsonNode document(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JSON.nullNode(); // parsed already: a bare type name
        }
    }

    /** What a check reports into: the rules that run, and the violations found so far. */
    static final class Found {
        final Settings settings;
        final Metadata metadata;
        final List<Violation> violations = new ArrayList<>();

        Found(Settings settings, Metadata metadata) {
            this.settings = settings;
            this.metadata = metadata;
        }

        boolean on(LintRule rule) {
            return settings.rules().contains(rule);
        }

        void add(LintRule rule, String path, String message) {
            if (on(rule)) {
                violations.add(new Violation(rule.name(), path, message));
            }
        }

        /** Whether a field of this name must carry the PII tag. */
        boolean personal(String field) {
            if (!on(LintRule.PII_TAGGED)) {
                return false;
            }
            for (Pattern p : settings.pii()) {
                if (p.matcher(field).find()) {
                    return true;
                }
            }
            return false;
        }

        /** Whether the data contract's metadata tags this field (by {@code Record.field}, {@code field} or a wildcard path). */
        boolean taggedInMetadata(String record, String field) {
            if (metadata == null || metadata.tags() == null) {
                return false;
            }
            for (var e : metadata.tags().entrySet()) {
                String path = e.getKey();
                boolean names = path.equals(field) || path.endsWith("." + field) || (record != null
                        && path.equals(record + "." + field));
                if (names && e.getValue().contains(settings.piiTag())) {
                    return true;
                }
            }
            return false;
        }

        /** {@link LintRule#PII_TAGGED}: a personal field without the tag in its own tags or the metadata. */
        void pii(String record, String field, String path, boolean taggedHere) {
            if (personal(field) && !taggedHere && !taggedInMetadata(record, field)) {
                add(LintRule.PII_TAGGED, path, "field " + field + " matches a PII pattern and is not tagged "
                        + settings.piiTag());
            }
        }
    }

    // ---- names

    static final Pattern PASCAL = Pattern.compile("[A-Z][A-Za-z0-9]*");
    static final Pattern LOWER_SNAKE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");
    static final Pattern UPPER_SNAKE = Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*");
    static final Pattern LOWER_CAMEL = Pattern.compile("[a-z][A-Za-z0-9]*");

    /** {@code OrderStatus} → {@code ORDER_STATUS}, as buf derives an enum's value prefix. */
    static String upperSnake(String pascal) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pascal.length(); i++) {
            char c = pascal.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && (Character.isLowerCase(pascal.charAt(i - 1))
                    || Character.isDigit(pascal.charAt(i - 1))
                    || (i + 1 < pascal.length() && Character.isLowerCase(pascal.charAt(i + 1))
                    && Character.isUpperCase(pascal.charAt(i - 1))))) {
                b.append('_');
            }
            b.append(Character.toUpperCase(c));
        }
        return b.toString();
    }

    static boolean matches(Pattern p, String s) {
        return s != null && p.matcher(s).matches();
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
