package io.quire.bench.drill;

import java.util.ArrayList;
import java.util.List;

/**
 * Every operation of a drill as a client saw it: what it asked of which node, when it started and
 * ended (milliseconds since the drill began), and how it ended: {@code ok} with what the registry
 * answered, {@code fail} with a definite refusal, or {@code unknown} (a timeout or a broken
 * connection: the write may or may not have happened).
 */
final class History {

    /** A registration, a read, a soft delete of a subject, a permanent delete of a subject. */
    enum Kind { REGISTER, READ, DELETE, PURGE }

    enum Outcome { OK, FAIL, UNKNOWN }

    /**
     * One operation. For a registration: the subject and schema text; the id, version and journal
     * offset answered. For a read: the id read, the offset token sent, the schema text expected and
     * what came back ({@code answer}).
     */
    record Op(int client, Kind kind, int node, String subject, String schema, long start, long end, Outcome outcome,
              long id, int version, long offset, String answer, String error) {
    }

    /** A fault's window: what was done and from when to when (milliseconds since the drill began). */
    record Fault(String name, long start, long end) {
    }

    private final List<Op> ops = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();

    synchronized void add(Op op) {
        ops.add(op);
    }

    synchronized void fault(Fault f) {
        faults.add(f);
    }

    synchronized List<Op> ops() {
        return List.copyOf(ops);
    }

    synchronized List<Fault> faults() {
        return List.copyOf(faults);
    }
}
