package io.quire.journal;

import static io.quire.journal.Values.at;
import static io.quire.journal.Values.id;
import static io.quire.journal.Values.s;
import static io.quire.journal.Values.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.journal.command.DeleteVersion;
import io.quire.journal.command.Envelope;
import io.quire.journal.command.LeaseIdBlock;
import io.quire.journal.command.RegisterSchema;
import io.quire.journal.model.CompatibilityLevel;
import io.quire.journal.model.Fingerprint;
import io.quire.journal.model.Metadata;
import io.quire.journal.model.SchemaReference;
import io.quire.journal.model.SchemaType;
import io.quire.journal.model.SearchTerm;
import io.quire.journal.model.SearchTerm.Kind;
import io.quire.journal.model.Subject;
import io.quire.journal.outcome.SchemaRegistered;
import io.quire.journal.view.ImpactReads;
import io.quire.journal.view.SearchReads;
import io.quire.journal.view.SearchReads.Hit;
import io.quire.journal.view.SearchReads.Query;
import io.quire.journal.view.TermPaths;
import io.quire.journal.view.ViewDigest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The search index as the applier files it, and the queries over it. No broker. */
class SearchIndexTest {

    ReplayedJournal journal;

    /** The terms each content was registered with: where the test's TermPaths finds places. */
    final Map<String, List<SearchTerm>> termsOf = new java.util.HashMap<>();
    final TermPaths places = (schema, kind, key) -> termsOf.getOrDefault(schema.schema(), List.of()).stream()
            .filter(t -> t.kind() == kind && t.key().equals(key)).toList();
    List<SearchTerm> pending = List.of();

    List<String> terms(SearchTerm... terms) {
        pending = List.of(terms);
        return SearchTerm.encodeAll(List.of(terms));
    }

    RegisterSchema register(String subject, String content, long proposedId, long revision, List<String> index,
                                   Metadata metadata, List<SchemaReference> references) {
        termsOf.put(content, pending);
        return new RegisterSchema(s(subject), SchemaType.AVRO, content, references, Fingerprint.parse("fp-" + content),
                id(proposedId), CompatibilityLevel.BACKWARD, at(revision), metadata, null, List.of(), index);
    }

    @BeforeEach
    void registerAnAddressAnOrderThatReferencesItAndACustomer() {
        journal = new ReplayedJournal();
        journal.append(new LeaseIdBlock("n1", "r1", 1000));
        append(register("com.acme.Address", "\"address\"", 1, -1, terms(
                new SearchTerm(Kind.RECORD, "Address", "com.acme.Address"),
                new SearchTerm(Kind.NAMESPACE, "com.acme", "com.acme.Address"),
                new SearchTerm(Kind.FIELD, "street", "com.acme.Address.street"),
                new SearchTerm(Kind.DOC, "postal", "com.acme.Address")), null, List.of()));
        append(register("orders-value", "\"order\"", 2, -1, terms(
                new SearchTerm(Kind.RECORD, "Order", "com.acme.Order"),
                new SearchTerm(Kind.FIELD, "customer_id", "com.acme.Order.customer_id"),
                new SearchTerm(Kind.FIELD, "id", "com.acme.Order.id"),
                new SearchTerm(Kind.TAG, "PII", "com.acme.Order.customer_id")), null,
                List.of(new SchemaReference("com.acme.Address", s("com.acme.Address"), v(1)))));
        append(register("customers-value", "\"customer1\"", 3, -1, terms(
                new SearchTerm(Kind.RECORD, "Customer", "com.acme.Customer"),
                new SearchTerm(Kind.FIELD, "Customer_Id", "com.acme.Customer.Customer_Id")),
                Metadata.of(Map.of("com.acme.Customer.email", List.of("PII")), Map.of("owner", "crm"), null),
                List.of()));
        append(register("customers-value", "\"customer2\"", 4, journal.view().revision(s("customers-value")).value(),
                terms(new SearchTerm(Kind.RECORD, "Customer", "com.acme.Customer"),
                        new SearchTerm(Kind.FIELD, "customer_id", "com.acme.Customer.customer_id")), null, List.of()));
        append(register("shipments-value", "\"shipment\"", 5, -1, terms(
                new SearchTerm(Kind.RECORD, "Shipment", "com.acme.Shipment")), null,
                List.of(new SchemaReference("com.acme.Order", s("orders-value"), v(1)))));
    }

    void append(RegisterSchema c) {
        assertInstanceOf(SchemaRegistered.class, journal.append(c), c.subject().name());
    }

    SearchReads.Page search(String q, Set<Kind> kinds, List<String> tags, boolean latestOnly, boolean deleted,
                            Predicate<Subject> visible, int offset, int limit) {
        return new SearchReads(journal.view()).search(new Query(q, kinds, tags, null, null, null, latestOnly, deleted,
                visible, offset, limit));
    }

    List<String> found(String q, Set<Kind> kinds) {
        return search(q, kinds, List.of(), false, false, x -> true, 0, 100).hits().stream()
                .map(h -> h.subject() + "/" + h.version() + " " + h.kind().label() + " " + h.key()).toList();
    }

    @Test
    void exactTermsMatchInAnyCase() {
        assertEquals(List.of("orders-value/1 field customer_id", "customers-value/1 field customer_id",
                "customers-value/2 field customer_id"), found("CUSTOMER_ID", Set.of()),
                "in the index's order: by kind, term, content id, then subject and version");
    }

    @Test
    void prefixesAndWildcardsMatchTerms() {
        assertEquals(List.of("customers-value/1 record customer", "customers-value/2 record customer"),
                found("cust*", Set.of(Kind.RECORD)));
        assertEquals(List.of("orders-value/1 field customer_id", "customers-value/1 field customer_id",
                "customers-value/2 field customer_id", "orders-value/1 field id"), found("*id", Set.of(Kind.FIELD)),
                "a leading wildcard walks the reversed dictionary under the ending");
        assertEquals(found("*id", Set.of(Kind.FIELD)).subList(0, 3), found("*stomer*", Set.of(Kind.FIELD)),
                "wildcards at both ends walk the whole dictionary");
        assertEquals(List.of("com.acme.Address/1 field street"), found("st?eet", Set.of()));
        assertEquals(List.of(), found("street?", Set.of()));
        assertEquals(List.of("com.acme.Address/1 doc postal"), found("postal", Set.of(Kind.DOC)));
    }

    @Test
    void subjectNamesAreFoundWholeAndByTheirWords() {
        assertEquals(List.of("shipments-value/1 subject shipments"), found("shipments", Set.of(Kind.SUBJECT)));
        assertEquals(List.of("shipments-value/1 subject shipments-value"), found("SHIPMENTS-VALUE", Set.of(Kind.SUBJECT)));
        assertEquals(List.of(), found("value", Set.of(Kind.SUBJECT)), "a word nearly every subject has is not filed");
    }

    @Test
    void tagsComeFromTheSchemaAndFromTheContractsMetadata() {
        List<String> tagged = search(null, Set.of(), List.of("pii"), false, false, x -> true, 0, 100).hits().stream()
                .map(h -> h.subject() + "/" + h.version() + " " + h.key()).toList();
        assertEquals(List.of("orders-value/1 pii", "customers-value/1 pii"), tagged);
        assertEquals(List.of("orders-value/1 field customer_id", "customers-value/1 field customer_id"),
                search("customer_id", Set.of(), List.of("PII"), false, false, x -> true, 0, 100).hits().stream()
                        .map(h -> h.subject() + "/" + h.version() + " " + h.kind().label() + " " + h.key()).toList(),
                "a tag filter keeps hits in content that carries the tag");
        assertEquals(List.of("customers-value/1 property owner=crm"), found("owner=crm", Set.of()));
    }

    @Test
    void latestOnlyDeletedRolesAndPaging() {
        assertEquals(List.of("orders-value/1", "customers-value/2"),
                search("customer_id", Set.of(), List.of(), true, false, x -> true, 0, 100).hits().stream()
                        .map(h -> h.subject() + "/" + h.version()).toList());
        assertInstanceOf(io.quire.journal.outcome.VersionDeleted.class,
                journal.append(new DeleteVersion(s("customers-value"), v(1), false)));
        assertEquals(List.of("orders-value/1", "customers-value/2"),
                search("customer_id", Set.of(), List.of(), false, false, x -> true, 0, 100).hits().stream()
                        .map(h -> h.subject() + "/" + h.version()).toList());
        Hit deleted = search("customer_id", Set.of(), List.of(), false, true, x -> true, 0, 100).hits().get(1);
        assertEquals(s("customers-value"), deleted.subject());
        assertTrue(deleted.deleted());
        assertEquals(List.of("customers-value/2"),
                search("customer_id", Set.of(), List.of(), false, true, x -> !x.name().startsWith("orders"), 1, 100)
                        .hits().stream().map(h -> h.subject() + "/" + h.version()).toList(), "offset 1, orders hidden");
        SearchReads.Page first = search("customer_id", Set.of(), List.of(), false, true, x -> true, 0, 2);
        assertEquals(2, first.hits().size());
        assertTrue(first.more());
        assertFalse(search("customer_id", Set.of(), List.of(), false, true, x -> true, 2, 2).more());
    }

    @Test
    void impactFollowsReferences() {
        ImpactReads impact = new ImpactReads(journal.view());
        assertEquals(List.of("com.acme.Address/1 via []", "orders-value/1 via [com.acme.Address/1]",
                "shipments-value/1 via [com.acme.Address/1, orders-value/1]"), impact.of(Kind.RECORD,
                "com.acme.Address", false, x -> true, places).uses().stream()
                .map(u -> u.subject() + "/" + u.version() + " via " + u.via().stream()
                        .map(st -> st.subject() + "/" + st.version()).toList()).toList());
        assertEquals(List.of("customers-value/1", "customers-value/2"), impact.of(Kind.FIELD,
                "com.acme.Customer.CUSTOMER_ID", false, x -> true, places).uses().stream()
                .map(u -> u.subject() + "/" + u.version()).toList(), "a qualified field: case-insensitive, that record only");
        assertEquals(List.of("orders-value/1", "shipments-value/1"), impact.of(Kind.FIELD, "com.acme.Order.customer_id",
                false, x -> !x.name().startsWith("customers"), places).uses().stream()
                .map(u -> u.subject() + "/" + u.version()).toList());
        assertEquals(List.of(), impact.of(Kind.FIELD, "com.acme.Other.customer_id", false, x -> true, places).uses());
    }

    @Test
    void aReplayFilesTheSameIndex() {
        ReplayedJournal again = new ReplayedJournal();
        for (Envelope e : journal.records()) {
            again.append(e);
        }
        assertEquals(ViewDigest.of(journal.kv()), ViewDigest.of(again.kv()));
        List<String> before = found("*", Set.of());
        assertEquals(before.size(), Set.copyOf(before).size(), "no hit twice: " + before);
        assertTrue(before.contains("com.acme.Address/1 subject acme"), before.toString());
        journal = again;
        assertEquals(before, found("*", Set.of()));
    }
}
