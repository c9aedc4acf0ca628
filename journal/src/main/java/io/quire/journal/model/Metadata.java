package io.quire.journal.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The metadata of a data contract, as Confluent defines it: tags per schema path, free properties
 * (owners, versions, anything the client filters on) and the names of sensitive fields. Kept
 * sorted, so two metadata with the same entries are equal and encode the same; empty parts are
 * left out of the JSON.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Metadata(SortedMap<String, SortedSet<String>> tags, SortedMap<String, String> properties,
                       SortedSet<String> sensitive) {

    public Metadata {
        SortedMap<String, SortedSet<String>> t = new TreeMap<>();
        if (tags != null) {
            tags.forEach((k, v) -> t.put(k, Collections.unmodifiableSortedSet(new TreeSet<>(v == null ? Set.of() : v))));
        }
        tags = Collections.unmodifiableSortedMap(t);
        properties = Collections.unmodifiableSortedMap(properties == null ? new TreeMap<>() : new TreeMap<>(properties));
        sensitive = Collections.unmodifiableSortedSet(sensitive == null ? new TreeSet<>() : new TreeSet<>(sensitive));
    }

    public static Metadata of(Map<String, ? extends Collection<String>> tags, Map<String, String> properties,
                              Collection<String> sensitive) {
        SortedMap<String, SortedSet<String>> t = new TreeMap<>();
        if (tags != null) {
            tags.forEach((k, v) -> t.put(k, new TreeSet<>(v)));
        }
        return new Metadata(t, properties == null ? null : new TreeMap<>(properties),
                sensitive == null ? null : new TreeSet<>(sensitive));
    }

    /**
     * {@code newer} laid over {@code older}, as Confluent merges defaults, a registration's own
     * metadata and overrides: entries of the newer win key by key, sensitive names add up. Either
     * may be null (absent).
     */
    public static Metadata merge(Metadata older, Metadata newer) {
        if (older == null) {
            return newer;
        }
        if (newer == null) {
            return older;
        }
        SortedMap<String, SortedSet<String>> tags = new TreeMap<>(older.tags);
        tags.putAll(newer.tags);
        SortedMap<String, String> properties = new TreeMap<>(older.properties);
        properties.putAll(newer.properties);
        SortedSet<String> sensitive = new TreeSet<>(older.sensitive);
        sensitive.addAll(newer.sensitive);
        return new Metadata(tags, properties, sensitive);
    }

    /** Whether every given property is among this metadata's properties with the same value. */
    public boolean hasProperties(Map<String, String> wanted) {
        return properties.entrySet().containsAll(wanted.entrySet());
    }
}
