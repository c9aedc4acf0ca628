package io.quire.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.junit.jupiter.api.Test;

/** The evolving-registrations workload sends what it says: valid Avro, each version backward compatible. */
class WorkloadsTest {

    static Schema parse(long field) throws Exception {
        String body = Workloads.evolvingBody(field);
        String text = new ObjectMapper().readTree(body).get("schema").asText();
        return new Schema.Parser().parse(text);
    }

    @Test
    void eachEvolvingVersionIsBackwardCompatibleWithTheOneBefore() throws Exception {
        Schema previous = parse(1);
        assertEquals("Evolving", previous.getName());
        assertEquals(2, previous.getFields().size());
        for (long k = 2; k < 60; k += 7) {
            Schema next = parse(k);
            assertNotEquals(previous, next);
            // BACKWARD: the new schema reads what the previous one wrote.
            assertEquals(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
                    SchemaCompatibility.checkReaderWriterCompatibility(next, previous).getType(),
                    "version with f" + k + " reads f" + (k - 7));
            previous = next;
        }
    }

    @Test
    void eachTextGoesToTwoDifferentSubjectsWhenRepeatedAndToOneWhenDistinct() {
        int subjects = 40;
        for (boolean distinct : new boolean[] {true, false}) {
            Map<String, Set<String>> subjectsOfText = new HashMap<>();
            Set<String> all = new HashSet<>();
            for (long k = 1; k <= 4_000; k++) {
                String subject = Workloads.evolvingSubject("r", k, subjects);
                all.add(subject);
                subjectsOfText.computeIfAbsent(Workloads.evolvingBody(Workloads.evolvingField(k, distinct)),
                        t -> new HashSet<>()).add(subject);
            }
            assertEquals(distinct ? 4_000 : 2_000, subjectsOfText.size());
            subjectsOfText.values().forEach(s -> assertEquals(distinct ? 1 : 2, s.size()));
            assertEquals(subjects, all.size());
        }
    }
}
