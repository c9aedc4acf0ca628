package io.quire.client.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.RuleSet;
import java.util.List;

/**
 * A subject's settings file ({@code orders-value.yaml} beside {@code orders-value.avsc}): every field
 * optional. {@code subject} names the subject when the file's path does not; {@code schemaType} when
 * the extension does not say it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record FolderSettings(String subject, String schemaType, String compatibility, Boolean normalize,
                      List<DesiredSubject.DesiredReference> references, Metadata metadata, RuleSet ruleSet) {

    static final FolderSettings NONE = new FolderSettings(null, null, null, null, null, null, null);

    @JsonIgnore
    boolean isEmpty() {
        return equals(NONE) || (subject == null && schemaType == null && compatibility == null && normalize == null
                && (references == null || references.isEmpty()) && metadata == null && ruleSet == null);
    }
}
