package io.quire.node.lint;

import io.quire.journal.model.LintConfig;
import io.quire.node.schema.AvroSupport;
import io.quire.node.schema.ParsedSchema;
import java.util.List;
import java.util.Map;

/**
 * What STANDARD lint adds to one registration's CPU, measured alone on one thread: the settings
 * resolved and the schema judged, as {@code RegistrationDecision} does per new version, for the
 * schemas of bench/wrk/register-linted.lua. Run (after {@code mvn -pl query-node package}):
 * {@code java -cp query-node/target/quire.jar:query-node/target/test-classes io.quire.node.lint.LintCost}
 */
public final class LintCost {

    private LintCost() {
    }

    public static void main(String[] args) {
        AvroSupport avro = new AvroSupport();
        LintConfig config = new LintConfig("STANDARD", null, null, null, null, null, null);
        int n = 200;
        String[] texts = new String[n];
        ParsedSchema<?>[] parsed = new ParsedSchema<?>[n];
        for (int i = 0; i < n; i++) {
            texts[i] = "{\"type\":\"record\",\"name\":\"Event" + i + "N" + i + "\",\"namespace\":\"bench.lint\","
                    + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"createdAt\",\"type\":\"long\"}]}";
            parsed[i] = avro.parse(texts[i], List.of(), Map.of());
        }
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            int iterations = 2_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                Lint.Settings s = Lint.settings(config);
                sink += Lint.check(parsed[i % n], texts[i % n], null, s).size();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                sink += avro.parse(texts[i % n], List.of(), Map.of()).canonical().length();
            }
            long t2 = System.nanoTime();
            System.out.printf("round %d: lint %.2f us per schema; for scale, Avro's parse of the same schema %.2f us%n",
                    round + 1, (t1 - t0) / 1e3 / iterations, (t2 - t1) / 1e3 / iterations);
        }
        System.out.println(sink == 42 ? "" : "(" + sink + ")");
    }
}
