package io.quire.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** {@code GET /config/{s}}: the level ({@code compatibilityLevel}) and {@code normalize}; other fields are not read. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ConfigAnswer(String compatibilityLevel, Boolean normalize) {
}
