package io.quire.journal.model;

/** The algorithms of a data encryption key, as Confluent's DEK registry names them. */
public enum DekAlgorithm {
    AES128_GCM, AES256_GCM, AES256_SIV;

    public static final DekAlgorithm DEFAULT = AES256_GCM;

    /** The algorithm a request names (null: the default), or null for a name that is none of them. */
    public static DekAlgorithm parse(String text) {
        if (text == null || text.isEmpty()) {
            return DEFAULT;
        }
        for (DekAlgorithm a : values()) {
            if (a.name().equals(text)) {
                return a;
            }
        }
        return null;
    }
}
