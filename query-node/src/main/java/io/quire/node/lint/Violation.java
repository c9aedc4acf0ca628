package io.quire.node.lint;

/** One broken rule: its name, where in the schema (a path of names), and what is wrong. */
public record Violation(String rule, String path, String message) {

    @Override
    public String toString() {
        return rule + " at " + path + ": " + message;
    }
}
