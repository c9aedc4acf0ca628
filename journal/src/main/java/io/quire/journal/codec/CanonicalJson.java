package io.quire.journal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The one streaming reader of the forms Quire writes itself (journal records, the register payload,
 * stored schemas): each object read field by field, each field at most once and of the JSON type
 * its encoder writes. Anything else is "not canonical": the caller gives up and reads the bytes
 * through a Jackson tree or binding instead, which decides and words any refusal. The fast path
 * and the fallback give equal results wherever both read (their tests compare them).
 */
public final class CanonicalJson {

    /** Reads one field's value (the parser on it); answers the field's bit, or 0 when not canonical. */
    @FunctionalInterface
    public interface Fields {
        int read(JsonParser p, String name, JsonToken value) throws IOException;
    }

    /** Marks a value that is neither a string nor null (compared by identity, never a real value). */
    public static final String OTHER = new String("not a string");

    private CanonicalJson() {
    }

    /**
     * The fields of the object whose start the parser is on, each read by {@code fields}; answers
     * the bits of the fields seen, or -1 when the object is not canonical (a field unknown, twice, or
     * of another type). The parser is left on the object's end when it answers bits.
     */
    public static int object(JsonParser p, Fields fields) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            return -1;
        }
        int seen = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            int bit = fields.read(p, name, p.nextToken());
            if (bit == 0 || (seen & bit) != 0) {
                return -1;
            }
            seen |= bit;
        }
        return p.currentToken() == JsonToken.END_OBJECT ? seen : -1;
    }

    /** The string at the parser, null for a JSON null, {@link #OTHER} for any other token. */
    public static String text(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_STRING ? p.getText() : t == JsonToken.VALUE_NULL ? null : OTHER;
    }

    /** An integer that fits an int. */
    public static boolean isInt(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT;
    }

    /** An integer that fits a long (Jackson's binding would refuse a bigger one or coerce other forms). */
    public static boolean isLong(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) {
            return false;
        }
        JsonParser.NumberType n = p.getNumberType();
        return n == JsonParser.NumberType.INT || n == JsonParser.NumberType.LONG;
    }

    /** The constant with exactly this name, or null (the fallback then decides). */
    public static <E extends Enum<E>> E named(E[] constants, String name) {
        for (E e : constants) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        return null;
    }

    /**
     * A references array (the parser on its start, left on its end): objects of {@code name},
     * {@code subject} and {@code version}, each a string (version an int) or null. With
     * {@code complete}, each must be there and not null. Null when not canonical.
     */
    public static List<SchemaReference> references(JsonParser p, boolean complete) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            return null;
        }
        List<SchemaReference> out = new ArrayList<>(2);
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
            Reference r = new Reference();
            int seen = object(p, r);
            if (seen < 0 || complete && (seen != 7 || r.name == null || r.subject == null || r.version == null)) {
                return null;
            }
            out.add(new SchemaReference(r.name, r.subject, r.version));
        }
        return t == JsonToken.END_ARRAY ? out : null;
    }

    private static final class Reference implements Fields {
        String name;
        Subject subject;
        Version version;

        @Override
        public int read(JsonParser p, String field, JsonToken v) throws IOException {
            switch (field) {
                case "name" -> {
                    return (name = text(p, v)) == OTHER ? 0 : 1;
                }
                case "subject" -> {
                    String named = text(p, v);
                    subject = named == null || named == OTHER ? null : Subject.of(named);
                    return named == OTHER ? 0 : 2;
                }
                case "version" -> {
                    if (v == JsonToken.VALUE_NULL) {
                        return 4;
                    }
                    if (!isInt(p, v)) {
                        return 0;
                    }
                    version = Version.of(p.getIntValue());
                    return 4;
                }
                default -> {
                    return 0;
                }
            }
        }
    }
}
