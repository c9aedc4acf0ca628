package io.quire.journal.view;

import io.quire.journal.model.SearchTerm;
import java.util.List;

/**
 * Where a term is in a stored schema, and how the schema spells it: what the index leaves out,
 * derived again (by the node, with the schema's own library) for the hits a query answers.
 */
@FunctionalInterface
public interface TermPaths {

    /** The places in {@code schema} (its text and its contract) where a term of this kind has this key; empty when none. */
    List<SearchTerm> of(StoredSchema schema, SearchTerm.Kind kind, String key);

    /** Knows no place: every hit says only its key. */
    TermPaths NONE = (schema, kind, key) -> List.of();
}
