package io.quire.journal.model;

/**
 * When a client runs a rule: migration rules between major versions (UPGRADE, DOWNGRADE, UPDOWN),
 * domain and encoding rules on write and read (WRITE, READ, WRITEREAD).
 */
public enum RuleMode {
    UPGRADE, DOWNGRADE, UPDOWN, WRITE, READ, WRITEREAD;

    public boolean isMigration() {
        return this == UPGRADE || this == DOWNGRADE || this == UPDOWN;
    }

    /** A pair of actions ("none,error") is only meaningful for a mode with two directions. */
    public boolean hasTwoDirections() {
        return this == UPDOWN || this == WRITEREAD;
    }
}
