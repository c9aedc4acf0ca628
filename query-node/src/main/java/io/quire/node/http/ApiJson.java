package io.quire.node.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quire.client.RegisterRequest;
import io.quire.journal.model.Context;
import io.quire.journal.model.ErrorCode;
import io.quire.journal.model.Offset;
import io.quire.journal.model.Subject;
import io.quire.node.error.RegistryException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/** JSON in and out of the HTTP API, with the Confluent content type. */
final class ApiJson {

    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    static final String OFFSET_HEADER = "X-Quire-Offset";

    // Strict where a lenient reading could change state the caller did not ask for: a key given
    // twice, or a second JSON value after the body, is refused rather than silently half-read.
    // A null item in a list (`"references": [null]`) is refused here, for every body, rather than
    // reaching code that reads each item.
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .withConfigOverride(Collection.class, o -> o.setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL)))
            .withConfigOverride(List.class, o -> o.setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL)))
            .withConfigOverride(Set.class, o -> o.setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL)))
            .build();

    private ApiJson() {
    }

    static <T> T body(RoutingContext ctx, Class<T> type) {
        Buffer body = ctx.body().buffer();
        if (body == null || body.length() == 0) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "Request body is missing");
        }
        try {
            T value = MAPPER.readValue(body.getBytes(), type);
            if (value == null) {
                throw new RegistryException(ErrorCode.BAD_REQUEST, "Request body is null");
            }
            return value;
        } catch (InvalidNullException e) {
            // a schema body's lists are its references: Confluent's code for a reference it cannot use
            if (type == RegisterRequest.class) {
                throw RegistryException.of(ErrorCode.INVALID_SCHEMA, "(a list item is null" + field(e) + ")");
            }
            throw new RegistryException(ErrorCode.BAD_REQUEST, "Invalid request body" + field(e) + ": a list item is null");
        } catch (JsonMappingException e) {
            if (e.getPath().isEmpty() && String.valueOf(e.getOriginalMessage()).startsWith("Trailing token")) {
                throw new RegistryException(ErrorCode.BAD_REQUEST, "Invalid request body: more than one JSON value");
            }
            throw new RegistryException(ErrorCode.BAD_REQUEST, "Invalid request body" + field(e)
                    + ": unexpected value");
        } catch (JsonProcessingException e) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, "Invalid JSON in the request body: "
                    + e.getOriginalMessage());
        } catch (IOException e) {
            throw new RegistryException(ErrorCode.BAD_REQUEST, e.getMessage());
        }
    }

    /** Where in the body a mapping failed, in JSON terms: {@code " at 'references[0].version'"}. */
    private static String field(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "" : " at '" + path + "'";
    }

    /** The Confluent error body, the one shape of every error answer. */
    record ErrorBody(@JsonProperty("error_code") int errorCode, String message) {
    }

    /** An error answer straight on a response, for requests refused before routing. */
    static void error(HttpServerResponse response, int status, int code, String message) {
        try {
            response.setStatusCode(status).putHeader("Content-Type", CONTENT_TYPE)
                    .end(Buffer.buffer(MAPPER.writeValueAsBytes(new ErrorBody(code, message))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // a record of an int and a string always serialises
        }
    }

    /** A prepared JSON object body with one more numeric field. */
    static ObjectNode withField(byte[] body, String field, long value) {
        try {
            ObjectNode node =
                    (ObjectNode) MAPPER.readTree(body);
            return node.put(field, value);
        } catch (IOException e) {
            throw new IllegalStateException(e); // the body was written by the view's own encoder
        }
    }

    /**
     * A schema body whose references name their subjects with the context they are read in
     * ({@code referenceFormat=qualified}): an unqualified subject of a schema in {@code :.ctx:}
     * becomes {@code :.ctx:subject}.
     */
    static byte[] qualifiedReferences(byte[] body, Context context) {
        try {
            JsonNode node = MAPPER.readTree(body);
            JsonNode refs = node.get("references");
            if (refs != null && refs.isArray()) {
                for (JsonNode r : refs) {
                    if (r.hasNonNull("subject") && r instanceof ObjectNode o) {
                        o.put("subject", context.qualify(Subject.of(r.get("subject").asText())).name());
                    }
                }
            }
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e); // the body was written by our own encoder
        }
    }

    static void ok(RoutingContext ctx, Object value) {
        send(ctx, 200, value);
    }

    /** A response value as JSON bytes. */
    static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // our own response records always serialise
        }
    }

    static void okBytes(RoutingContext ctx, byte[] json) {
        ctx.response().putHeader("Content-Type", CONTENT_TYPE).end(Buffer.buffer(json));
    }

    static void send(RoutingContext ctx, int status, Object value) {
        try {
            ctx.response().setStatusCode(status).putHeader("Content-Type", CONTENT_TYPE)
                    .end(Buffer.buffer(MAPPER.writeValueAsBytes(value)));
        } catch (JsonProcessingException e) {
            ctx.fail(e);
        }
    }

    /** A write's answer, with the journal offset it was applied at for read-your-writes elsewhere. */
    static void written(RoutingContext ctx, Offset offset, Object value) {
        ctx.response().putHeader(OFFSET_HEADER, offset.toString());
        ok(ctx, value);
    }
}
