package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An exporter as Confluent's {@code /exporters} API describes it (what to copy, how to name it at
 * the destination, where the destination is), plus what the journal keeps of its run: whether it
 * is paused, the journal offset it has copied up to ({@code offset}, -1: nothing yet), the node
 * that holds its lease and until when (journal time), the last error, and a generation that a
 * reset raises so a runner of the old generation stops. {@code ts} is the journal time of the last
 * change.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Exporter(String name, String contextType, String context, List<String> subjects,
                       String subjectRenameFormat, Map<String, String> config, boolean paused, Offset offset,
                       String runner, long leaseUntil, String trace, int generation, long ts) {

    public static final String AUTO = "AUTO";
    public static final String CUSTOM = "CUSTOM";
    public static final String NONE = "NONE";

    public Exporter {
        config = config == null ? new TreeMap<>() : new TreeMap<>(config);
        subjects = subjects == null || subjects.isEmpty() ? List.of("*") : List.copyOf(subjects);
        contextType = contextType == null ? AUTO : contextType;
        offset = offset == null ? Offset.NONE : offset;
    }

    /**
     * Whether the exporter copies {@code subjectName}: {@code *} names every subject of the default
     * context, a name ending in {@code *} every subject it starts, any other name itself.
     */
    public boolean covers(String subjectName) {
        for (String s : subjects) {
            if (s.equals("*") ? !subjectName.startsWith(":")
                    : s.endsWith("*") ? subjectName.startsWith(s.substring(0, s.length() - 1)) : s.equals(subjectName)) {
                return true;
            }
        }
        return false;
    }

    /** A name as Confluent accepts one: letters, digits, '_', '-' and '.', 1 to 64 characters. */
    public static boolean isValidName(String name) {
        if (name == null || name.isEmpty() || name.length() > 64) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_' && c != '-' && c != '.') {
                return false;
            }
        }
        return true;
    }

    public Exporter withRun(boolean paused, Offset offset, String runner, long leaseUntil, String trace, int generation,
                            long ts) {
        return new Exporter(name, contextType, context, subjects, subjectRenameFormat, config, paused, offset, runner,
                leaseUntil, trace, generation, ts);
    }
}
