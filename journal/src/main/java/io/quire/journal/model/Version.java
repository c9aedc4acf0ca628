package io.quire.journal.model;

/** A version number within one subject: 1, 2, 3… assigned by the applier in journal order. */
public record Version(int value) implements Comparable<Version> {

    public Version {
        if (value < 1) {
            throw new IllegalArgumentException("version must be >= 1: " + value);
        }
    }

    public static Version of(int value) {
        return new Version(value);
    }

    public Version next() {
        return new Version(value + 1);
    }

    @Override
    public int compareTo(Version o) {
        return Integer.compare(value, o.value);
    }

    @Override
    public String toString() {
        return Integer.toString(value);
    }
}
