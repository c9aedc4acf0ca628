package io.quire.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What {@code POST /changesets} did: the change's id, the journal offset of its one record (-1 when
 * nothing needed writing), and per step of the request, in order, what it came to: {@code
 * registered} (a new version), {@code unchanged} (the schema was that version already), {@code
 * config} or {@code deleted}, with the id and version of a registration.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChangeSetAnswer(String id, long offset, List<StepAnswer> steps) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record StepAnswer(String subject, String result, Integer id, Integer version) {
    }
}
