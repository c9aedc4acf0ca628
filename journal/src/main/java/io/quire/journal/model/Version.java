package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A version number within one subject: 1 for its first schema, one more for each new one. A
 * journal record may carry any number (the applier refuses the ones that name nothing); "latest"
 * and -1 are resolved at the edge and never travel. On the wire it is the bare number.
 */
public record Version(@JsonValue int number) implements Comparable<Version> {

    /** What a subject that never had a version has as its latest. */
    public static final Version NONE = new Version(0);

    /** How a client names "the latest" in a reference; the edge pins it to a number before journaling. */
    public static final Version LATEST = new Version(-1);

    @JsonCreator
    public static Version of(int number) {
        return new Version(number);
    }

    public boolean isLatest() {
        return number == -1;
    }

    public Version next() {
        return new Version(Math.addExact(number, 1));
    }

    /** Whether a version can exist (numbering starts at 1). */
    public boolean exists() {
        return number >= 1;
    }

    public static Version max(Version a, Version b) {
        return a.number >= b.number ? a : b;
    }

    @Override
    public int compareTo(Version o) {
        return Integer.compare(number, o.number);
    }

    @Override
    public String toString() {
        return Integer.toString(number);
    }
}
