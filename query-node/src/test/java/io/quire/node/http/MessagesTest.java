package io.quire.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What is left of a library's message once it is fit for a client. */
class MessagesTest {

    @Test
    void classNamesStackLinesAndEchoedBackticksAreGone() {
        assertEquals("bad", Messages.clean("org.apache.avro.SchemaParseException: bad"));
        assertEquals("Cannot build 'integer' from text", Messages.clean("Cannot build `java.lang.Integer` from text"));
        assertEquals("boom", Messages.clean("boom\n\tat io.quire.Foo.bar(Foo.java:1)"));
        assertEquals("Unexpected character (''' (code 96))", Messages.clean("Unexpected character ('`' (code 96))"),
                "a backtick echoed from the body (the fuzz test's seed 15381826648818)");
    }
}
