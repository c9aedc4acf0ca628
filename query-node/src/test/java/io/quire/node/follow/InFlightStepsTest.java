package io.quire.node.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quire.node.confluent.ConfluentLogCodec;
import io.quire.node.confluent.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What a record waits for while the follower's window slides: only the steps it depends on, until each is settled. */
class InFlightStepsTest {

    private static LogRecord schema(String subject, int version) throws Exception {
        String key = "{\"keytype\":\"SCHEMA\",\"subject\":\"" + subject + "\",\"version\":" + version + ",\"magic\":1}";
        String value = "{\"subject\":\"" + subject + "\",\"version\":" + version + ",\"id\":" + version
                + ",\"schemaType\":\"AVRO\",\"references\":[],\"schema\":\"\\\"string\\\"\",\"deleted\":false}";
        return ConfluentLogCodec.read(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    private static InFlightSteps.Step step(long offset, String subject, Integer version) {
        return new InFlightSteps.Step(offset, 0, subject, new CompletableFuture<>(), version);
    }

    @Test
    void aVersionWaitsForItsOwnImportOnlyUntilThatOneIsSettled() throws Exception {
        InFlightSteps f = new InFlightSteps();
        f.add(step(1, "a", 1));
        f.add(step(2, "a", 2));
        f.add(step(3, "b", 1));
        assertFalse(f.mustSettleBefore(schema("a", 3), "a"), "a subject's next version does not wait");
        assertTrue(f.mustSettleBefore(schema("a", 2), "a"), "the same version again waits for the one in flight");
        assertEquals(1, f.poll().offset());
        assertTrue(f.mustSettleBefore(schema("a", 2), "a"));
        assertFalse(f.mustSettleBefore(schema("a", 1), "a"), "version 1 settled: no longer waited for");
        assertEquals(2, f.poll().offset());
        assertFalse(f.mustSettleBefore(schema("a", 2), "a"));
        assertTrue(f.mustSettleBefore(schema("b", 1), "b"));
        assertEquals(1, f.size());
    }

    @Test
    void aSubjectWithOtherStepsInFlightWaitsUntilTheLastOfThemIsSettled() throws Exception {
        InFlightSteps f = new InFlightSteps();
        f.add(step(1, "a", null)); // a config or a delete of a
        f.add(step(2, "b", 1));
        f.add(step(3, "a", null));
        assertTrue(f.mustSettleBefore(schema("a", 9), "a"));
        assertFalse(f.mustSettleBefore(schema("b", 2), "b"));
        f.poll();
        assertTrue(f.mustSettleBefore(schema("a", 9), "a"), "one of a's two steps is still in flight");
        f.poll();
        f.poll();
        assertFalse(f.mustSettleBefore(schema("a", 9), "a"));
        assertTrue(f.isEmpty());
        assertNull(f.poll());
    }
}
