package io.quire.node.schema;

import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.OneOfElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ReservedElement;
import com.squareup.wire.schema.internal.parser.TypeElement;
import io.quire.node.schema.ProtobufSupport.Document;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import kotlin.ranges.IntRange;

/**
 * Can a reader's messages decode what a writer's messages encoded? A diff of the two files at the
 * wire level, following Confluent's Protobuf rules: fields are matched by number; adding or
 * removing optional fields, renaming fields, adding messages and changing enums are safe; a
 * removed message, a field whose type changes outside its wire-compatible group (varint: int32,
 * uint32, int64, uint64, bool and enums; zigzag: sint32, sint64; 32-bit: fixed32, sfixed32;
 * 64-bit: fixed64, sfixed64; length-delimited: string, bytes), a changed message type, a changed
 * package, required fields added or removed, a numeric field whose explicit label changes
 * (optional, required, repeated), and more than one field moved into a oneof are not. Map keys
 * and values follow the same rules. Stricter than Confluent, and only when asked
 * ({@code --protobuf-strict-reserved}): a field that takes a number the writer reserved.
 */
final class ProtobufCompatibility {

    private static final Map<String, String> WIRE_GROUP = new HashMap<>();

    static {
        for (String t : List.of("int32", "uint32", "int64", "uint64", "bool")) {
            WIRE_GROUP.put(t, "varint");
        }
        WIRE_GROUP.put("sint32", "zigzag");
        WIRE_GROUP.put("sint64", "zigzag");
        WIRE_GROUP.put("fixed32", "fixed32");
        WIRE_GROUP.put("sfixed32", "fixed32");
        WIRE_GROUP.put("fixed64", "fixed64");
        WIRE_GROUP.put("sfixed64", "fixed64");
        WIRE_GROUP.put("string", "length");
        WIRE_GROUP.put("bytes", "length");
        WIRE_GROUP.put("float", "float");
        WIRE_GROUP.put("double", "double");
    }

    private final boolean strictReserved;
    private final Document writer;
    private final Document reader;
    private final String readerRole;
    private final String writerRole;
    private final List<String> errors = new ArrayList<>();
    private final Set<String> writerEnums = new HashSet<>();
    private final Set<String> readerEnums = new HashSet<>();

    ProtobufCompatibility(Document writer, Document reader, String readerRole, String writerRole,
                          boolean strictReserved) {
        this.strictReserved = strictReserved;
        this.writer = writer;
        this.reader = reader;
        this.readerRole = readerRole;
        this.writerRole = writerRole;
    }

    List<String> check() {
        if (!nz(writer.file().getPackageName()).equals(nz(reader.file().getPackageName()))) {
            error("PACKAGE_CHANGED", "#", "the package changed from '" + nz(writer.file().getPackageName()) + "'");
        }
        Map<String, MessageElement> wMessages = messages(writer, writerEnums);
        Map<String, MessageElement> rMessages = messages(reader, readerEnums);
        for (Map.Entry<String, MessageElement> e : wMessages.entrySet()) {
            MessageElement r = rMessages.get(e.getKey());
            if (r == null) {
                error("MESSAGE_REMOVED", e.getKey(), "message " + e.getKey() + " is missing");
            } else {
                compare(e.getValue(), r, e.getKey());
            }
        }
        return errors;
    }

    private void error(String type, String path, String what) {
        errors.add("{errorType:'" + type + "', description:'" + what + " at " + path + " in the " + readerRole
                + " schema (checked against the " + writerRole + " schema)'}");
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** Messages of the schema's own file by dotted name within the package ("Outer.Inner"). */
    private static Map<String, MessageElement> messages(Document doc, Set<String> enums) {
        Map<String, MessageElement> out = new LinkedHashMap<>();
        collect(doc.file().getTypes(), "", out, enums);
        for (ProtoFileElement dep : doc.references().values()) {
            collect(dep.getTypes(), "", new LinkedHashMap<>(), enums); // only their enums: fields may use them
        }
        return out;
    }

    private static void collect(List<TypeElement> types, String scope, Map<String, MessageElement> out,
                                Set<String> enums) {
        for (TypeElement t : types) {
            String name = scope + t.getName();
            if (t instanceof MessageElement m) {
                out.put(name, m);
            } else if (ProtobufSupport.isEnum(t)) {
                enums.add(t.getName());
            }
            collect(t.getNestedTypes(), name + ".", out, enums);
        }
    }

    private record Slot(FieldElement field, String oneOf) {
    }

    private static Map<Integer, Slot> byNumber(MessageElement m) {
        Map<Integer, Slot> out = new LinkedHashMap<>();
        for (FieldElement f : m.getFields()) {
            out.put(f.getTag(), new Slot(f, null));
        }
        for (OneOfElement o : m.getOneOfs()) {
            for (FieldElement f : o.getFields()) {
                out.put(f.getTag(), new Slot(f, o.getName()));
            }
        }
        return out;
    }

    private void compare(MessageElement w, MessageElement r, String path) {
        Map<Integer, Slot> wFields = byNumber(w);
        Map<Integer, Slot> rFields = byNumber(r);
        Set<String> goneOneOfs = wholeOneOfsRemoved(w, r, rFields);
        for (Map.Entry<Integer, Slot> e : wFields.entrySet()) {
            Slot ws = e.getValue();
            Slot rs = rFields.get(e.getKey());
            String at = path + "." + ws.field().getName() + " (" + e.getKey() + ")";
            if (rs == null) {
                if (ProtobufSupport.isRequired(ws.field())) {
                    error("REQUIRED_FIELD_REMOVED", at, "required field " + ws.field().getName() + " was removed");
                } else if (ws.oneOf() != null && !goneOneOfs.contains(ws.oneOf())) {
                    error("ONEOF_FIELD_REMOVED", at, "field " + ws.field().getName() + " was removed from oneof "
                            + ws.oneOf());
                }
                continue;
            }
            // A field that left a oneof but is still there (top-level or elsewhere) was moved, not
            // removed: that only relaxes the oneof, as Confluent judges it.
            compareField(ws.field(), rs.field(), at);
        }
        compareOneOfMoves(w, r, wFields, path);
        Set<Integer> reserved = strictReserved ? reservedNumbers(w) : Set.of();
        for (Map.Entry<Integer, Slot> e : rFields.entrySet()) {
            if (wFields.containsKey(e.getKey())) {
                continue;
            }
            String at = path + "." + e.getValue().field().getName() + " (" + e.getKey() + ")";
            if (ProtobufSupport.isRequired(e.getValue().field())) {
                error("REQUIRED_FIELD_ADDED", at, "required field " + e.getValue().field().getName() + " was added");
            }
            if (reserved.contains(e.getKey())) {
                error("RESERVED_FIELD_REUSED", at, "field number " + e.getKey() + " was reserved");
            }
        }
    }

    /**
     * The writer's oneofs that the reader lacks whole: no oneof of that name, and none of its fields
     * anywhere. Confluent's diff counts that as one compatible removal (ONEOF_REMOVED), not as
     * fields removed from a oneof, so a oneof of new fields may be added under a FULL level.
     */
    private static Set<String> wholeOneOfsRemoved(MessageElement w, MessageElement r, Map<Integer, Slot> rFields) {
        Set<String> readerOneOfs = new HashSet<>();
        for (OneOfElement o : r.getOneOfs()) {
            readerOneOfs.add(o.getName());
        }
        Set<String> out = new HashSet<>();
        for (OneOfElement o : w.getOneOfs()) {
            if (!readerOneOfs.contains(o.getName())
                    && o.getFields().stream().noneMatch(f -> rFields.containsKey(f.getTag()))) {
                out.add(o.getName());
            }
        }
        return out;
    }

    /**
     * Fields made mutually exclusive by a oneof of the reader, as Confluent judges it: the fields the
     * writer had that the oneof now holds come from groups (one writer oneof, or one top-level field
     * each; new fields don't count). More than one group is incompatible: MULTIPLE_FIELDS_MOVED_TO_ONEOF
     * when more than one of them was top-level, FIELD_MOVED_TO_EXISTING_ONEOF otherwise.
     */
    private void compareOneOfMoves(MessageElement w, MessageElement r, Map<Integer, Slot> wFields, String path) {
        for (OneOfElement o : r.getOneOfs()) {
            Set<String> groups = new HashSet<>();
            int moved = 0;
            for (FieldElement f : o.getFields()) {
                Slot before = wFields.get(f.getTag());
                if (before != null && before.oneOf() == null) {
                    groups.add("field " + f.getTag());
                    moved++;
                } else if (before != null) {
                    groups.add("oneof " + before.oneOf());
                }
            }
            if (groups.size() <= 1) {
                continue;
            }
            if (moved > 1) {
                error("MULTIPLE_FIELDS_MOVED_TO_ONEOF", path, moved + " existing fields moved into the oneof "
                        + o.getName());
            } else {
                error("FIELD_MOVED_TO_EXISTING_ONEOF", path, "fields of more than one earlier group moved into the oneof "
                        + o.getName());
            }
        }
    }

    private static Set<Integer> reservedNumbers(MessageElement m) {
        Set<Integer> out = new HashSet<>();
        for (ReservedElement r : m.getReserveds()) {
            for (Object v : r.getValues()) {
                if (v instanceof Integer i) {
                    out.add(i);
                } else if (v instanceof IntRange range) {
                    int last = Math.min(range.getLast(), range.getFirst() + 100_000); // "to max" stays bounded
                    for (int i = range.getFirst(); i <= last; i++) {
                        out.add(i);
                    }
                }
            }
        }
        return out;
    }

    private enum Kind { SCALAR, ENUM, MESSAGE, MAP }

    private Kind kind(String type, Set<String> enums) {
        if (type.startsWith("map<")) {
            return Kind.MAP;
        }
        if (WIRE_GROUP.containsKey(type)) {
            return Kind.SCALAR;
        }
        return enums.contains(simpleName(type)) ? Kind.ENUM : Kind.MESSAGE;
    }

    private static String simpleName(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1);
    }

    private void compareField(FieldElement w, FieldElement r, String at) {
        compareTypes(w.getType(), r.getType(), w.getLabel(), r.getLabel(), at);
    }

    /**
     * Types compared as Confluent compares them: by kind (scalar — enums included —, message,
     * map), scalars by wire-compatible group, messages by simple name, maps by key and value. A
     * label change between two explicit labels matters only for numeric scalars; proto3's
     * implicit label (a plain singular field) is compatible with any.
     */
    private void compareTypes(String wType, String rType, Field.Label wLabel, Field.Label rLabel, String at) {
        Kind wk = kind(wType, writerEnums);
        Kind rk = kind(rType, readerEnums);
        boolean wScalar = wk == Kind.SCALAR || wk == Kind.ENUM;
        boolean rScalar = rk == Kind.SCALAR || rk == Kind.ENUM;
        if (wScalar && rScalar) {
            String wGroup = wk == Kind.ENUM ? "varint" : WIRE_GROUP.get(wType);
            String rGroup = rk == Kind.ENUM ? "varint" : WIRE_GROUP.get(rType);
            if (!wGroup.equals(rGroup)) {
                error("FIELD_SCALAR_KIND_CHANGED", at, "the field changed from " + wType + " to " + rType);
            } else if (wLabel != null && rLabel != null && wLabel != rLabel && !"length".equals(wGroup)) {
                error("FIELD_NUMERIC_LABEL_CHANGED", at, "the numeric field changed from " + label(wLabel) + " to "
                        + label(rLabel));
            }
            return;
        }
        if (wk != rk) {
            error("FIELD_KIND_CHANGED", at, "the field changed from " + wType + " to " + rType);
            return;
        }
        if (wk == Kind.MAP) {
            String[] wKv = mapTypes(wType);
            String[] rKv = mapTypes(rType);
            compareTypes(wKv[0], rKv[0], null, null, at + " key");
            compareTypes(wKv[1], rKv[1], null, null, at + " value");
        } else if (!simpleName(wType).equals(simpleName(rType))) {
            error("FIELD_NAMED_TYPE_CHANGED", at, "the field changed from " + wType + " to " + rType);
        }
    }

    private static String label(Field.Label l) {
        return l.name().toLowerCase(Locale.ROOT);
    }

    /** {@code "map<string, int32>"} as {@code {"string", "int32"}}. */
    private static String[] mapTypes(String map) {
        String inner = map.substring(map.indexOf('<') + 1, map.lastIndexOf('>'));
        int comma = inner.indexOf(',');
        return new String[] {inner.substring(0, comma).strip(), inner.substring(comma + 1).strip()};
    }
}
