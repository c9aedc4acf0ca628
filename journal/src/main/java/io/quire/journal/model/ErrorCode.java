package io.quire.journal.model;

/**
 * Every error Quire answers with: its Confluent error code, the HTTP status and the message
 * format. The one translation point between a rejection and what a client sees.
 */
public enum ErrorCode {
    SUBJECT_NOT_FOUND(40401, 404, "Subject '%s' not found."),
    VERSION_NOT_FOUND(40402, 404, "Version %s not found."),
    SCHEMA_NOT_FOUND(40403, 404, "Schema %s not found"),
    SUBJECT_SOFT_DELETED(40404, 404, "Subject '%s' was soft deleted.Set permanent=true to delete permanently"),
    SUBJECT_NOT_SOFT_DELETED(40405, 404, "Subject '%s' was not deleted first before being permanently deleted"),
    VERSION_SOFT_DELETED(40406, 404, "Subject '%s' Version %s was soft deleted.Set permanent=true to delete permanently"),
    VERSION_NOT_SOFT_DELETED(40407, 404, "Subject '%s' Version %s was not deleted first before being permanently deleted"),
    SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED(40408, 404, "Subject '%s' does not have subject-level compatibility configured"),
    SUBJECT_LEVEL_MODE_NOT_CONFIGURED(40409, 404, "Subject '%s' does not have subject-level mode configured"),
    ASSOCIATION_NOT_FOUND(40410, 404, "Association for '%s' not found."),
    CONTEXT_NOT_FOUND(40412, 404, "Context '%s' not found."),
    KEY_NOT_FOUND(40470, 404, "Key '%s' not found"),
    EXPORTER_NOT_FOUND(40450, 404, "Exporter '%s' not found."),
    INVALID_EXPORTER_NAME(40950, 409, "Missing or invalid exporter name: %s"),
    INVALID_EXPORTER_CONFIG(40951, 409, "Missing or invalid exporter config: %s"),
    INVALID_EXPORTER_SUBJECTS(40952, 409, "Invalid exporter subjects: %s"),
    EXPORTER_EXISTS(40960, 409, "Exporter '%s' already exists."),
    EXPORTER_RUNNING(40961, 409, "Exporter '%s' already running."),
    EXPORTER_NOT_RUNNING(40962, 409, "Exporter '%s' not running."),
    EXPORTER_NOT_PAUSED(40963, 409, "Exporter '%s' not paused."),
    KEY_NOT_SOFT_DELETED(40471, 404, "Key '%s' was not deleted first before being permanently deleted"),
    KEY_SOFT_DELETED(40472, 404, "Key '%s' must be undeleted first"),
    KEY_EXISTS(40971, 409, "Key '%s' already exists; use a different value"),
    ASSOCIATION_FOR_RESOURCE_EXISTS(40903, 409, "An association of type '%s' already exists for resource '%s'"),
    ASSOCIATION_FOR_SUBJECT_EXISTS(40904, 409, "An association already exists for subject '%s'"),
    STRONG_ASSOCIATION_FOR_SUBJECT_EXISTS(40905, 409, "A strong association already exists for subject '%s'"),
    NO_ACTIVE_SUBJECT_VERSION(40907, 409, "No active (non-deleted) version exists for subject '%s'"),
    ASSOCIATION_FROZEN(40908, 409, "The association of type  '%s' is frozen for subject '%s'"),
    /** Quire's own: a change set planned against versions the registry no longer has as latest. */
    CHANGE_SET_MOVED(40920, 409, "The registry moved since the change was planned: %s"),
    INCOMPATIBLE_SCHEMA(409, 409, "Schema being registered is incompatible with an earlier schema for subject \"%s\", details: %s"),
    INVALID_SCHEMA(42201, 422, "Invalid schema %s"),
    INVALID_VERSION(42202, 422, "The specified version '%s' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\""),
    INVALID_COMPATIBILITY_LEVEL(42203, 422, "Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive"),
    INVALID_MODE(42204, 422, "Invalid mode. %s"),
    OPERATION_NOT_PERMITTED(42205, 422, "%s"),
    REFERENCE_EXISTS(42206, 422, "One or more references exist to the schema {%s}."),
    ID_DOES_NOT_MATCH(42207, 422, "%s"),
    INVALID_SUBJECT(42208, 422, "The specified subject is not valid: %s"),
    SCHEMA_TOO_LARGE(42209, 422, "Schema is too large: %s"),
    INVALID_RULESET(42210, 422, "%s"),
    INVALID_ASSOCIATION(42212, 422, "%s"),
    CONTEXT_NOT_EMPTY(42213, 422, "Context '%s' is not empty: delete its subjects permanently first"),
    INVALID_KEY(42271, 422, "Invalid or missing key info: %s"),
    KEY_REFERENCE_EXISTS(42272, 422, "One or more references exist to the key %s"),
    BAD_REQUEST(400, 400, "%s"),
    UNAUTHORIZED(40101, 401, "%s"),
    FORBIDDEN(40301, 403, "%s"),
    NOT_FOUND(404, 404, "HTTP 404 Not Found"),
    METHOD_NOT_ALLOWED(405, 405, "HTTP 405 Method Not Allowed"),
    UNPROCESSABLE(422, 422, "%s"),
    TOO_MANY_REQUESTS(429, 429, "Too many requests: %s"),
    STORE_ERROR(50001, 500, "Error in the backend datastore: %s"),
    OPERATION_TIMEOUT(50002, 500, "Operation timed out: %s"),
    FORWARDING_ERROR(50003, 500, "Error while forwarding the request: %s"),
    NOT_READY(50001, 503, "The node is not ready: %s");

    public final int code;
    public final int httpStatus;
    private final String format;

    ErrorCode(int code, int httpStatus, String format) {
        this.code = code;
        this.httpStatus = httpStatus;
        this.format = format;
    }

    public String message(Object... args) {
        return String.format(format, args);
    }
}
