package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Locale;

/**
 * A registry's, context's or subject's lint settings, the {@code lint} object of its config:
 * the profile (MINIMAL, BASIC, STANDARD; NONE for no lint), rules and categories added
 * ({@code use}) or removed ({@code except}) by name, the field-name patterns that must carry the
 * PII tag, and whether a violation refuses the registration ({@code REFUSE}, the default) or is
 * reported only ({@code WARN}). The rules are the node's (docs/lint.md); the journal keeps the
 * settings as given.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record LintConfig(String profile, List<String> use, List<String> except, List<String> piiPatterns,
                         String piiTag, String action, String enumZeroValueSuffix) {

    public LintConfig {
        use = use == null ? List.of() : List.copyOf(use);
        except = except == null ? List.of() : List.copyOf(except);
        piiPatterns = piiPatterns == null ? List.of() : List.copyOf(piiPatterns);
    }

    /** The profile's name, STANDARD when none is given. */
    public String profileOrDefault() {
        return profile == null ? "STANDARD" : profile.toUpperCase(Locale.ROOT);
    }

    /** Whether violations only warn. */
    public boolean warns() {
        return "WARN".equalsIgnoreCase(action);
    }
}
