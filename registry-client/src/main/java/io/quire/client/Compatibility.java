package io.quire.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** A compatibility check's answer: whether the schema is compatible, and the registry's messages when not. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Compatibility(@JsonProperty("is_compatible") boolean compatible, List<String> messages) {

    public List<String> messagesOrEmpty() {
        return messages == null ? List.of() : messages;
    }
}
