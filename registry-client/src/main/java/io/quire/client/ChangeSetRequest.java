package io.quire.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The body of Quire's {@code POST /changesets}: changes to several subjects applied as one (all of
 * them or none). {@code expect} names each subject's latest live version as the change was planned
 * (null: none); a change is refused with 40920 if any moved. Each step changes one subject: a
 * registration (references with version -1 name the latest version when applied, a version an
 * earlier step makes included), a config update, or a delete.
 *
 * @param id the change's id (a Git commit, a ticket); the node makes one up when it is null
 * @param message what the change is for; recorded in the audit trail with every version it makes
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChangeSetRequest(String id, String message, List<Expected> expect, List<Step> steps) {

    public ChangeSetRequest {
        expect = expect == null ? List.of() : List.copyOf(expect);
        steps = steps == null ? List.of() : List.copyOf(steps);
    }

    /** A subject's latest live version as planned; {@code version} null: it had none. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Expected(String subject, Integer version) {
    }

    /**
     * One change of one subject: exactly one of {@code register}, {@code config}, {@code delete} and
     * {@code deleteConfig} (true: the subject's own settings removed, as {@code DELETE /config/{s}}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(String subject, RegisterRequest register, Boolean normalize, ConfigRequest config,
                       Delete delete, Boolean deleteConfig) {

        public static Step register(String subject, RegisterRequest r, boolean normalize) {
            return new Step(subject, r, normalize ? Boolean.TRUE : null, null, null, null);
        }

        public static Step config(String subject, ConfigRequest c) {
            return new Step(subject, null, null, c, null, null);
        }

        public static Step delete(String subject, boolean permanent) {
            return new Step(subject, null, null, null, new Delete(permanent), null);
        }

        public static Step deleteConfig(String subject) {
            return new Step(subject, null, null, null, null, Boolean.TRUE);
        }

        /** Whether this step removes the subject's own settings. */
        public boolean deletesConfig() {
            return Boolean.TRUE.equals(deleteConfig);
        }
    }

    /** A subject's delete: soft, or soft then permanent. */
    public record Delete(boolean permanent) {
    }
}
