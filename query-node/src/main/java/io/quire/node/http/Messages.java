package io.quire.node.http;

import java.util.regex.Pattern;

/**
 * The last guard between a message and a client: no Java class names and no stack text leave
 * the node, whatever a library put into an exception's message.
 */
final class Messages {

    // "org.apache.avro.SchemaParseException: " and the like, with or without the trailing colon.
    private static final Pattern QUALIFIED_THROWABLE =
            Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\\b:?\\s*");
    // Jackson quotes the types it could not build: `java.lang.Integer`, `io.quire.client.RegisterRequest`.
    private static final Pattern QUOTED_TYPE = Pattern.compile("`(?:[a-z][a-z0-9_]*\\.)+([A-Za-z0-9_$]+)`");
    private static final Pattern STACK_LINE = Pattern.compile("\\s*\\bat [\\w.$]+\\([^)]*\\)");
    private static final int MAX_LENGTH = 4_000;

    private Messages() {
    }

    static String clean(String message) {
        if (message == null) {
            return "";
        }
        String out = QUALIFIED_THROWABLE.matcher(message).replaceAll("");
        out = QUOTED_TYPE.matcher(out).replaceAll(m -> "'" + simple(m.group(1)) + "'");
        out = STACK_LINE.matcher(out).replaceAll("");
        // Left over are backticks a parser echoed from the input (found by the fuzz test, seed
        // 15381826648818: a body starting with one); they read as quoting, so they become quotes.
        out = out.replace('`', '\'');
        return out.length() > MAX_LENGTH ? out.substring(0, MAX_LENGTH) + "…" : out;
    }

    /** The JSON word for a Java type a client never sees the name of. */
    private static String simple(String javaType) {
        return switch (javaType) {
            case "Integer", "Long", "Short", "int", "long" -> "integer";
            case "Boolean", "boolean" -> "boolean";
            case "String" -> "string";
            case "List", "ArrayList" -> "array";
            default -> "object";
        };
    }
}
