package io.quire.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every command answers --help with its usage and bad arguments with a usage line, never a stack trace. */
class MainTest {

    record Run(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    static Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = java.util.Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        int code = Main.execute(command, rest, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static void noJavaInternals(Run r) {
        assertFalse(r.all().contains("Exception"), r.all());
        assertFalse(r.all().contains("\tat "), r.all());
    }

    @Test
    void everyCommandAnswersHelpWithUsage() {
        for (String command : List.of("dev", "serve", "config", "audit", "broker", "verify", "rebuild", "journal",
                "snapshot", "import-confluent", "hash-password", "help")) {
            Run r = run("", command, "--help");
            assertEquals(0, r.code(), command + ": " + r.all());
            assertTrue(r.out().toLowerCase().contains("usage") || r.out().contains("| flag |"), command + ": " + r.out());
            noJavaInternals(r);
        }
    }

    @Test
    void hashPasswordWithoutInputIsAUsageError() {
        Run r = run("", "hash-password");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("no password on standard input"), r.err());
        noJavaInternals(r);
        Run ok = run("s3cret\n", "hash-password", "--cost", "4");
        assertEquals(0, ok.code(), ok.all());
        assertTrue(ok.out().startsWith("$2"), ok.out());
    }

    @Test
    void badArgumentsGetAUsageLine() {
        for (String[] args : List.of(new String[] {"hash-password", "--cost", "many"},
                new String[] {"hash-password", "--cost", "99"}, new String[] {"broker", "--port"},
                new String[] {"broker", "--nonsense", "1"}, new String[] {"audit", "--subject"},
                new String[] {"audit", "--from", "yesterday"}, new String[] {"verify", "--bogus", "x"},
                new String[] {"no-such-command"})) {
            Run r = run("", args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.all());
            assertTrue(r.err().startsWith("error: "), String.join(" ", args) + ": " + r.err());
            noJavaInternals(r);
        }
    }
}
