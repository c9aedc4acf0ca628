package io.quire.client.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quire.client.RegisterRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What applying a folder to a registry would do, per subject, computed without changing anything:
 * a value that is printed, saved ({@code --output json}) and applied only if the registry still
 * matches it (each change carries the latest version the plan saw). Exit codes as CI reads them:
 * 0 nothing to do, 2 changes, 1 something refused.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Plan(String registry, List<Change> changes) {

    /** What a change does. */
    public enum Action {
        /** A subject the registry does not have: its first version. */
        CREATE,
        /** A new version of a subject, compatible as the registry checked it. */
        NEW_VERSION,
        /** The subject's compatibility level or normalize flag set. */
        SET_CONFIG,
        /** The subject's own settings removed: the context's or registry's apply again. */
        CLEAR_CONFIG,
        /** A subject the folder no longer has, deleted (allowed by {@code --allow-deletes}). */
        DELETE,
        /** Nothing: the registry holds the folder's schema as the subject's latest version. */
        NONE,
        /**
         * The folder's schema is an earlier version of the subject, not its latest: registering it
         * again creates nothing (the registry answers with that version), so apply leaves it.
         */
        OLDER_VERSION,
        /** A subject the registry has and the folder does not, kept (no {@code --allow-deletes}). */
        NOT_IN_FOLDER,
        /** Refused by the registry: incompatible, or not a valid schema; its messages say why. */
        REFUSED
    }

    /**
     * One change. {@code latestVersion} is the subject's latest live version when planned (null: the
     * subject had none), the precondition a saved plan is applied under; {@code request} the
     * registration (references to a version this plan creates say {@code latest}: they are
     * resolved when applied); {@code errorCode} the registry's error code of a refusal that is not
     * an incompatibility (42201 not a valid schema, 40401 a reference's subject missing, ...).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Change(String subject, Action action, Integer latestVersion, Integer matchedVersion,
                        RegisterRequest request, List<DesiredSubject.DesiredReference> references, Boolean normalize,
                        String compatibility, Boolean setNormalize, String currentCompatibility, Boolean permanent,
                        List<String> messages, String file, Integer errorCode) {

        @JsonIgnore
        public boolean changes() {
            return action == Action.CREATE || action == Action.NEW_VERSION || action == Action.SET_CONFIG
                    || action == Action.CLEAR_CONFIG || action == Action.DELETE;
        }
    }

    @JsonIgnore
    public boolean refused() {
        return changes.stream().anyMatch(c -> c.action() == Action.REFUSED);
    }

    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** The plan as JSON: what {@code --output json} prints and {@code --out} saves. */
    public String json() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A plan saved as {@link #json}. */
    public static Plan read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), Plan.class);
    }

    /** 0 nothing to do, 2 changes to apply, 1 something refused. */
    @JsonIgnore
    public int exitCode() {
        return refused() ? 1 : changes.stream().anyMatch(Change::changes) ? 2 : 0;
    }
}
