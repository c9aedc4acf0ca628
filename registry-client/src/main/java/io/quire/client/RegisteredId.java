package io.quire.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The answer of a registration: the schema's id, and where the registry says so (Confluent 8, Quire)
 * the version and GUID; absent fields are null.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RegisteredId(long id, Integer version, String guid) {
}
